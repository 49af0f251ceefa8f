/* A native JPS peer for robomaze's 8-connected search (issue 40), built at
 * run time by benchmarks/bench_jps_peer.py with gcc -O3 -march=native
 * -shared -fPIC and called through ctypes.
 *
 * warthog-jps (Harabor's group) cannot be fetched here (no network beyond
 * package registries, and no wheel packages it), so this is the strongest
 * native JPS we could write in the time: the same graph and pruning rules
 * as robomaze._search._jps (no corner cutting, Harabor and Grastien 2014),
 * with the straight scans block-based as in JPS-B / warthog: 64 cells at a
 * time from bit rows (the free mask packed by rows, and a transposed copy
 * for the vertical scans), the first blocked cell or forced neighbour found
 * by count-trailing-zeros. The packing is the preprocessing (timed apart);
 * a query is jps8(). A binary heap of (f, g, node) with f ties to the larger
 * g, the padded one-cell blocked border, octile heuristic.
 *
 * Layout: cells are padded flat indices (rows+2)*(cols+2). Bit rows: row r
 * of the padded grid is words bits[r*W .. r*W+W-1], bit j of the row = cell
 * column j (padded), W = (cols + 2 + 63) / 64 + 1 (a zero word at the end).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    long rows, cols, pc, pr, W, WT;
    uint8_t *fp;     /* padded free mask */
    uint64_t *row;   /* bit rows: (pr) x W */
    uint64_t *col;   /* bit columns (transposed): (pc) x WT */
} grid;

static inline int bit(const uint64_t *b, long i) { return (int)((b[i >> 6] >> (i & 63)) & 1); }

grid *jps_prepare(const uint8_t *occ, long rows, long cols) {
    grid *g = malloc(sizeof(grid));
    g->rows = rows; g->cols = cols; g->pc = cols + 2; g->pr = rows + 2;
    g->W = (g->pc + 63) / 64 + 1;
    g->WT = (g->pr + 63) / 64 + 1;
    long n = g->pr * g->pc;
    g->fp = calloc(n, 1);
    g->row = calloc(g->pr * g->W, 8);
    g->col = calloc(g->pc * g->WT, 8);
    for (long r = 0; r < rows; r++)
        for (long c = 0; c < cols; c++)
            if (!occ[r * cols + c]) {
                long R = r + 1, C = c + 1;
                g->fp[R * g->pc + C] = 1;
                g->row[R * g->W + (C >> 6)] |= 1ULL << (C & 63);
                g->col[C * g->WT + (R >> 6)] |= 1ULL << (R & 63);
            }
    return g;
}

void jps_free(grid *g) { free(g->fp); free(g->row); free(g->col); free(g); }

/* Bits [i, i+64) of a bit line (i >= 0; the line has a zero word past its end). */
static inline uint64_t window(const uint64_t *line, long i) {
    long w = i >> 6, s = i & 63;
    uint64_t lo = line[w] >> s;
    return s ? lo | (line[w + 1] << (64 - s)) : lo;
}
static inline uint64_t rev64(uint64_t x) {
    x = ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1);
    x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2);
    x = ((x >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((x & 0x0F0F0F0F0F0F0F0FULL) << 4);
    return __builtin_bswap64(x);
}
/* Bits i, i-1, ..., i-63 as bits 0..63 (positions below 0 read as blocked). */
static inline uint64_t back(const uint64_t *line, long i) {
    long s = i - 63;
    uint64_t v = s >= 0 ? window(line, s) : (window(line, 0) << (-s));
    return rev64(v);
}

/* Block scan along a bit line from position x (exclusive) in direction dir
 * (+1/-1), with the neighbouring lines a (p side) and b (-p side), goal at
 * position gpos on this line (or -1). Returns the jump position or -1. The
 * textbook rule: at n = x + dir: blocked -> -1; n == goal -> n; forced if
 * (a[n] && !a[n-dir]) || (b[n] && !b[n-dir]). */
static long scan(const uint64_t *L, const uint64_t *A, const uint64_t *B, long x, int dir,
                 long gpos) {
    long pos = x;   /* last cell scanned (free) */
    for (;;) {
        uint64_t f, fa, fb, fa0, fb0;
        if (dir > 0) {
            f = window(L, pos + 1);
            fa = window(A, pos + 1); fa0 = window(A, pos);
            fb = window(B, pos + 1); fb0 = window(B, pos);
        } else {
            f = back(L, pos - 1);
            fa = back(A, pos - 1); fa0 = back(A, pos);
            fb = back(B, pos - 1); fb0 = back(B, pos);
        }
        uint64_t stop_forced = (fa & ~fa0) | (fb & ~fb0);
        uint64_t blocked = ~f;
        int kb = blocked ? __builtin_ctzll(blocked) : 64;
        int kf = stop_forced ? __builtin_ctzll(stop_forced) : 64;
        long kg = 64;
        if (gpos >= 0) {
            long dgo = (gpos - pos) * dir;
            if (dgo >= 1 && dgo <= 64) kg = dgo - 1;
        }
        int k = kb < kf ? kb : kf;
        if (kg < k) return gpos;
        if (k < 64) {
            if (kb <= kf) return -1;          /* blocked before (or at) any forced cell */
            return pos + dir * (k + 1);
        }
        pos += dir * 64;
    }
}

static inline long jump_straight(const grid *g, long x, long d, long goal) {
    long pc = g->pc;
    long r = x / pc, c = x - r * pc;
    long gr = goal / pc, gc = goal - gr * pc;
    if (d == 1 || d == -1) {
        const uint64_t *L = g->row + r * g->W;
        long y = scan(L, L - g->W, L + g->W, c, (int)d, gr == r ? gc : -1);
        return y < 0 ? -1 : r * pc + y;
    } else {
        const uint64_t *L = g->col + c * g->WT;
        long y = scan(L, L - g->WT, L + g->WT, r, d > 0 ? 1 : -1, gc == c ? gr : -1);
        return y < 0 ? -1 : y * pc + c;
    }
}

static inline long jump_diag(const grid *g, long x, long dr, long dc, long goal) {
    const uint8_t *fp = g->fp;
    for (;;) {
        if (!(fp[x + dr] && fp[x + dc])) return -1;
        long n = x + dr + dc;
        if (!fp[n]) return -1;
        if (n == goal) return n;
        if (jump_straight(g, n, dc, goal) >= 0 || jump_straight(g, n, dr, goal) >= 0) return n;
        x = n;
    }
}

typedef struct { double f, g; long node; } item;

static inline int less(const item *a, const item *b) {
    return a->f < b->f || (a->f == b->f && a->g > b->g);
}

static const double SQ2 = 1.4142135623730951;

static inline double octile(long a, long b, long pc) {
    long ar = a / pc, br = b / pc;
    long dr = labs(ar - br), dc = labs((a - ar * pc) - (b - br * pc));
    return dr < dc ? (dc - dr) + SQ2 * dr : (dr - dc) + SQ2 * dc;
}

/* One query: the octile length start -> goal (unpadded flat cells), -1 if none;
 * *expanded = jump points expanded. g/parent/mark scratch of (pr*pc) cells. */
double jps8(grid *G, long start, long goal, double *gv, int64_t *parent, uint8_t *mark,
            long *expanded) {
    long pc = G->pc;
    long s = (start / G->cols + 1) * pc + start % G->cols + 1;
    long t = (goal / G->cols + 1) * pc + goal % G->cols + 1;
    memset(mark, 0, G->pr * pc);
    const uint8_t *fp = G->fp;
    *expanded = 0;
    if (!fp[s] || !fp[t]) return -1.0;
    long cap = 1024, n = 0;
    item *h = malloc(cap * sizeof(item));
    gv[s] = 0; parent[s] = -1; mark[s] = 1;
    h[n++] = (item){octile(s, t, pc), 0.0, s};
    double out = -1.0;
    long dirs[8];
    while (n > 0) {
        item top = h[0];
        item last = h[--n];
        long i = 0;
        for (;;) {   /* sift last down from the root */
            long c = 2 * i + 1;
            if (c >= n) break;
            if (c + 1 < n && less(&h[c + 1], &h[c])) c++;
            if (!less(&h[c], &last)) break;
            h[i] = h[c];
            i = c;
        }
        if (n > 0) h[i] = last;
        long x = top.node;
        double gx = top.g;
        if (mark[x] == 2 || gx > gv[x]) continue;
        mark[x] = 2;
        (*expanded)++;
        if (x == t) { out = gx; break; }
        int nd = 0;
        long px = parent[x];
        if (px < 0) {
            dirs[0] = -pc; dirs[1] = pc; dirs[2] = -1; dirs[3] = 1;
            dirs[4] = -pc - 1; dirs[5] = -pc + 1; dirs[6] = pc - 1; dirs[7] = pc + 1;
            nd = 8;
        } else {
            long xr = x / pc, pr = px / pc;
            long ddr = xr == pr ? 0 : (xr > pr ? pc : -pc);
            long xc = x - xr * pc, pcc = px - pr * pc;
            long ddc = xc == pcc ? 0 : (xc > pcc ? 1 : -1);
            if (ddr && ddc) { dirs[0] = ddr; dirs[1] = ddc; dirs[2] = ddr + ddc; nd = 3; }
            else {
                long d = ddr + ddc, p = ddc == 0 ? 1 : pc;
                dirs[0] = d; dirs[1] = p; dirs[2] = -p; dirs[3] = d + p; dirs[4] = d - p; nd = 5;
            }
        }
        for (int k = 0; k < nd; k++) {
            long d = dirs[k], y;
            int diag = !(d == 1 || d == -1 || d == pc || d == -pc);
            if (!diag) y = jump_straight(G, x, d, t);
            else {
                long dc = (d - pc == 1 || d + pc == 1) ? 1 : -1;
                y = jump_diag(G, x, d - dc, dc, t);
            }
            if (y < 0 || mark[y] == 2) continue;
            long yr = y / pc, xr2 = x / pc;
            long a = labs(yr - xr2), b = labs((y - yr * pc) - (x - xr2 * pc));
            long steps = a > b ? a : b;
            double gy = gx + (diag ? steps * SQ2 : (double)steps);
            if (mark[y] == 0 || gy < gv[y]) {
                gv[y] = gy; parent[y] = x; mark[y] = 1;
                if (n == cap) { cap *= 2; h = realloc(h, cap * sizeof(item)); }
                item it = {gy + octile(y, t, pc), gy, y};
                long j = n++;
                while (j > 0) {
                    long p = (j - 1) >> 1;
                    if (!less(&it, &h[p])) break;
                    h[j] = h[p];
                    j = p;
                }
                h[j] = it;
            }
        }
    }
    free(h);
    return out;
}

/* ------------------------------------------------------------------ JPS+
 * The like-for-like peer of robomaze._search._jps_plus: the same tables
 * (int16, 8 per padded cell: > 0 a jump point that many moves away, <= 0
 * that many free cells before the move is illegal; directions E W S N SE SW
 * NE NW), built by jpsp_prepare (preprocessing, timed apart), and the same
 * goal-bounded query: every jump returns the cell the scan would, so the
 * search expands the same jump points as jps8. Its marks carry a per-query
 * stamp (no clearing between queries), its heap is kept in the grid. */

typedef struct {
    long rows, cols, pc, pr, cap;
    int16_t *t;
    uint32_t *mark;   /* stamp + 1 open, stamp + 2 closed */
    uint32_t stamp;
    item *h;
} jpsp;

static inline int16_t on(int16_t s, int forced) {
    return forced ? 1 : (s > 0 ? s + 1 : s - 1);
}

jpsp *jpsp_prepare(const uint8_t *occ, long rows, long cols) {
    jpsp *J = malloc(sizeof(jpsp));
    long pc = cols + 2, pr = rows + 2, n = pr * pc;
    J->rows = rows; J->cols = cols; J->pc = pc; J->pr = pr;
    uint8_t *fp = calloc(n, 1);
    for (long r = 0; r < rows; r++)
        for (long c = 0; c < cols; c++)
            fp[(r + 1) * pc + c + 1] = !occ[r * cols + c];
    int16_t *t = calloc(8 * n, sizeof(int16_t));
    for (long r = 1; r <= rows; r++) {
        long row = r * pc;
        for (long c = cols; c >= 1; c--) {
            long x = row + c, nx = x + 1;
            if (fp[x] && fp[nx])
                t[8 * x] = on(t[8 * nx], (fp[nx + pc] && !fp[x + pc]) || (fp[nx - pc] && !fp[x - pc]));
        }
        for (long c = 1; c <= cols; c++) {
            long x = row + c, nx = x - 1;
            if (fp[x] && fp[nx])
                t[8 * x + 1] = on(t[8 * nx + 1], (fp[nx + pc] && !fp[x + pc]) || (fp[nx - pc] && !fp[x - pc]));
        }
        for (long c = 1; c <= cols; c++) {
            long x = row + c;
            if (!fp[x]) continue;
            long nx = x - pc;
            if (fp[nx])
                t[8 * x + 3] = on(t[8 * nx + 3], (fp[nx + 1] && !fp[x + 1]) || (fp[nx - 1] && !fp[x - 1]));
            if (fp[x - pc] && fp[x + 1] && fp[x - pc + 1]) {
                nx = x - pc + 1;
                t[8 * x + 6] = on(t[8 * nx + 6], t[8 * nx] > 0 || t[8 * nx + 3] > 0);
            }
            if (fp[x - pc] && fp[x - 1] && fp[x - pc - 1]) {
                nx = x - pc - 1;
                t[8 * x + 7] = on(t[8 * nx + 7], t[8 * nx + 1] > 0 || t[8 * nx + 3] > 0);
            }
        }
    }
    for (long r = rows; r >= 1; r--) {
        long row = r * pc;
        for (long c = 1; c <= cols; c++) {
            long x = row + c;
            if (!fp[x]) continue;
            long nx = x + pc;
            if (fp[nx])
                t[8 * x + 2] = on(t[8 * nx + 2], (fp[nx + 1] && !fp[x + 1]) || (fp[nx - 1] && !fp[x - 1]));
            if (fp[x + pc] && fp[x + 1] && fp[x + pc + 1]) {
                nx = x + pc + 1;
                t[8 * x + 4] = on(t[8 * nx + 4], t[8 * nx] > 0 || t[8 * nx + 2] > 0);
            }
            if (fp[x + pc] && fp[x - 1] && fp[x + pc - 1]) {
                nx = x + pc - 1;
                t[8 * x + 5] = on(t[8 * nx + 5], t[8 * nx + 1] > 0 || t[8 * nx + 2] > 0);
            }
        }
    }
    free(fp);
    J->t = t;
    J->mark = calloc(n, sizeof(uint32_t));
    J->stamp = 0;
    J->cap = 1024;
    J->h = malloc(J->cap * sizeof(item));
    return J;
}

void jpsp_free(jpsp *J) { free(J->t); free(J->mark); free(J->h); free(J); }

/* Bytes of the tables (8 int16 per padded cell), for the memory column. */
long jpsp_bytes(const jpsp *J) { return 8 * J->pc * J->pr * (long)sizeof(int16_t); }

static const int KIDX[9] = {7, 3, 6, 1, -1, 0, 5, 2, 4};

/* The scan's stop from x along (sr, sc); *steps its move count; -1 if none. */
static inline long pjump(const int16_t *t, long x, long xr, long xc, int sr, int sc, long pc,
                         long goal, long gr, long gc, long *steps) {
    long v = t[8 * x + KIDX[(sr + 1) * 3 + sc + 1]];
    long reach = v > 0 ? v : -v;
    if (sr == 0 || sc == 0) {
        long j = sr == 0 ? (gr == xr ? (gc - xc) * sc : 0) : (gc == xc ? (gr - xr) * sr : 0);
        if (j >= 1 && j <= reach) { *steps = j; return goal; }
        if (v > 0) { *steps = v; return x + v * (sr * pc + sc); }
        return -1;
    }
    long step = sr * pc + sc;
    long best = v > 0 ? v : reach + 1;
    long rd = (gr - xr) * sr, cd = (gc - xc) * sc;
    if (rd >= 1 && rd < best) {
        long jj = cd - rd;
        if (jj == 0) best = rd;
        else if (jj > 0) {
            long w = t[8 * (x + rd * step) + (sc > 0 ? 0 : 1)];
            if (jj <= (w > 0 ? w : -w)) best = rd;
        }
    }
    if (cd >= 1 && cd < best) {
        long jj = rd - cd;
        if (jj == 0) best = cd;
        else if (jj > 0) {
            long w = t[8 * (x + cd * step) + (sr > 0 ? 2 : 3)];
            if (jj <= (w > 0 ? w : -w)) best = cd;
        }
    }
    if (best <= reach) { *steps = best; return x + best * step; }
    return -1;
}

static const int SR0[8] = {-1, 1, 0, 0, -1, -1, 1, 1};
static const int SC0[8] = {0, 0, -1, 1, -1, 1, -1, 1};

/* One JPS+ query, as jps8: the octile length (unpadded flat cells), -1 if none.
 * g/parent scratch of (pr*pc) cells. */
double jpsp8(jpsp *J, long start, long goal, double *gv, int64_t *parent, long *expanded) {
    long pc = J->pc;
    long s = (start / J->cols + 1) * pc + start % J->cols + 1;
    long t = (goal / J->cols + 1) * pc + goal % J->cols + 1;
    if (J->stamp > 0xFFFFFFF0u) { memset(J->mark, 0, J->pr * pc * sizeof(uint32_t)); J->stamp = 0; }
    uint32_t opened = J->stamp + 1, closed = J->stamp + 2;
    J->stamp += 2;
    uint32_t *mark = J->mark;
    const int16_t *T = J->t;
    *expanded = 0;
    long gr = t / pc, gc = t - gr * pc;
    long n = 0;
    item *h = J->h;
    gv[s] = 0; parent[s] = -1; mark[s] = opened;
    h[n++] = (item){octile(s, t, pc), 0.0, s};
    double out = -1.0;
    int drs[8], dcs[8];
    while (n > 0) {
        item top = h[0];
        item last = h[--n];
        long i = 0;
        for (;;) {
            long c = 2 * i + 1;
            if (c >= n) break;
            if (c + 1 < n && less(&h[c + 1], &h[c])) c++;
            if (!less(&h[c], &last)) break;
            h[i] = h[c];
            i = c;
        }
        if (n > 0) h[i] = last;
        long x = top.node;
        double gx = top.g;
        if (mark[x] == closed || gx > gv[x]) continue;
        mark[x] = closed;
        (*expanded)++;
        if (x == t) { out = gx; break; }
        long xr = x / pc, xc = x - xr * pc;
        int nd;
        long px = parent[x];
        if (px < 0) {
            for (int k = 0; k < 8; k++) { drs[k] = SR0[k]; dcs[k] = SC0[k]; }
            nd = 8;
        } else {
            long pr = px / pc, pcc = px - pr * pc;
            int a = xr == pr ? 0 : (xr > pr ? 1 : -1);
            int b = xc == pcc ? 0 : (xc > pcc ? 1 : -1);
            if (a && b) {
                drs[0] = a; dcs[0] = 0; drs[1] = 0; dcs[1] = b; drs[2] = a; dcs[2] = b; nd = 3;
            } else if (a) {
                drs[0] = a; dcs[0] = 0; drs[1] = 0; dcs[1] = 1; drs[2] = 0; dcs[2] = -1;
                drs[3] = a; dcs[3] = 1; drs[4] = a; dcs[4] = -1; nd = 5;
            } else {
                drs[0] = 0; dcs[0] = b; drs[1] = 1; dcs[1] = 0; drs[2] = -1; dcs[2] = 0;
                drs[3] = 1; dcs[3] = b; drs[4] = -1; dcs[4] = b; nd = 5;
            }
        }
        for (int k = 0; k < nd; k++) {
            long steps;
            long y = pjump(T, x, xr, xc, drs[k], dcs[k], pc, t, gr, gc, &steps);
            if (y < 0 || mark[y] == closed) continue;
            double gy = gx + ((drs[k] && dcs[k]) ? steps * SQ2 : (double)steps);
            if (mark[y] != opened || gy < gv[y]) {
                gv[y] = gy; parent[y] = x; mark[y] = opened;
                if (n == J->cap) { J->cap *= 2; J->h = h = realloc(h, J->cap * sizeof(item)); }
                item it = {gy + octile(y, t, pc), gy, y};
                long j = n++;
                while (j > 0) {
                    long p = (j - 1) >> 1;
                    if (!less(&it, &h[p])) break;
                    h[j] = h[p];
                    j = p;
                }
                h[j] = it;
            }
        }
    }
    return out;
}
