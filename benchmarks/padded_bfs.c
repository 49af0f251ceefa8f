/* Native peers for robomaze's grid fields (issue 40), built at run time by
 * benchmarks/bench_peers.py with gcc -O3 -march=native -shared -fPIC and
 * called through ctypes.
 *
 * bfs4_padded: the strongest plain 4-connected unit-cost BFS we know how to
 *   write in C. The grid is copied into an int32 label array with a blocked
 *   one-cell border (free -2, blocked -1), so a neighbour is cur +- 1 /
 *   cur +- (cols + 2) with no bounds check; the FIFO is an int32 array and
 *   the loop is branch-light: every neighbour is written back (the new
 *   label if it was -2, its own value otherwise) and appended, the tail
 *   moving by the comparison's 0/1, so no branch depends on the grid.
 *   Levels are kept implicitly (d = dist[cur] + 1).
 * bfs4_padded_branchy: the same padded layout with the classic
 *   "if (dist[nb] == -2) push" test (the better of the two on open grids,
 *   whose tests predict well).
 * dijkstra8: 8-connected octile Dijkstra field (moves 1 and sqrt 2, a
 *   diagonal only when both orthogonal cells beside it are free: no corner
 *   cutting), padded grid, a binary heap of (double key, int32 node) with
 *   lazy deletion; unreached cells get +inf.
 *
 * Inputs: occ = rows*cols bytes, nonzero = blocked. Outputs are padded
 * ((rows + 2) * (cols + 2)), the caller reads the inner part; the caller
 * allocates them (numpy.empty: pages fault in on first write, as malloc's).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

static void labels(const uint8_t *occ, long rows, long cols, int32_t *dist) {
    long pc = cols + 2;
    for (long c = 0; c < pc; c++) {
        dist[c] = -1;
        dist[(rows + 1) * pc + c] = -1;
    }
    for (long r = 0; r < rows; r++) {
        int32_t *d = dist + (r + 1) * pc;
        const uint8_t *o = occ + r * cols;
        d[0] = -1;
        d[cols + 1] = -1;
        for (long c = 0; c < cols; c++) d[c + 1] = -2 + (o[c] != 0);
    }
}

long bfs4_padded(const uint8_t *occ, long rows, long cols, long goal, int32_t *dist) {
    long pc = cols + 2;
    labels(occ, rows, cols, dist);
    long src = (goal / cols + 1) * pc + goal % cols + 1;
    if (dist[src] != -2) return 0;
    int32_t *queue = malloc((rows * cols + 8) * sizeof(int32_t));
    long head = 0, tail = 1;
    dist[src] = 0;
    queue[0] = (int32_t)src;
    const long off[4] = {-pc, 1, pc, -1};
    while (head < tail) {
        int32_t cur = queue[head++];
        int32_t d = dist[cur] + 1;
        for (int k = 0; k < 4; k++) {
            int32_t nb = cur + (int32_t)off[k];
            int32_t old = dist[nb];
            int ok = old == -2;
            dist[nb] = ok ? d : old;
            queue[tail] = nb;
            tail += ok;
        }
    }
    free(queue);
    long total = (rows + 2) * pc;
    if (tail < rows * cols)
        for (long i = 0; i < total; i++) dist[i] = dist[i] == -2 ? -1 : dist[i];
    return tail;
}

long bfs4_padded_branchy(const uint8_t *occ, long rows, long cols, long goal, int32_t *dist) {
    long pc = cols + 2;
    labels(occ, rows, cols, dist);
    long src = (goal / cols + 1) * pc + goal % cols + 1;
    if (dist[src] != -2) return 0;
    int32_t *queue = malloc((rows * cols + 8) * sizeof(int32_t));
    long head = 0, tail = 1;
    dist[src] = 0;
    queue[0] = (int32_t)src;
    while (head < tail) {
        int32_t cur = queue[head++];
        int32_t d = dist[cur] + 1;
        if (dist[cur - pc] == -2) { dist[cur - pc] = d; queue[tail++] = cur - pc; }
        if (dist[cur + 1] == -2) { dist[cur + 1] = d; queue[tail++] = cur + 1; }
        if (dist[cur + pc] == -2) { dist[cur + pc] = d; queue[tail++] = cur + pc; }
        if (dist[cur - 1] == -2) { dist[cur - 1] = d; queue[tail++] = cur - 1; }
    }
    free(queue);
    long total = (rows + 2) * pc;
    if (tail < rows * cols)
        for (long i = 0; i < total; i++) dist[i] = dist[i] == -2 ? -1 : dist[i];
    return tail;
}

/* ------------------------------------------------------------ octile Dijkstra */
typedef struct { double key; int32_t node; } item;

static void sift_up(item *h, long i) {
    item x = h[i];
    while (i > 0) {
        long p = (i - 1) >> 1;
        if (h[p].key <= x.key) break;
        h[i] = h[p];
        i = p;
    }
    h[i] = x;
}

static void sift_down(item *h, long n, long i) {
    item x = h[i];
    for (;;) {
        long c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && h[c + 1].key < h[c].key) c++;
        if (h[c].key >= x.key) break;
        h[i] = h[c];
        i = c;
    }
    h[i] = x;
}

long dijkstra8(const uint8_t *occ, long rows, long cols, long goal, double *g) {
    long pc = cols + 2;
    long total = (rows + 2) * pc;
    uint8_t *fr = malloc(total);     /* padded free mask */
    uint8_t *done = calloc(total, 1);
    for (long i = 0; i < total; i++) g[i] = INFINITY;
    for (long c = 0; c < pc; c++) { fr[c] = 0; fr[(rows + 1) * pc + c] = 0; }
    for (long r = 0; r < rows; r++) {
        uint8_t *f = fr + (r + 1) * pc;
        const uint8_t *o = occ + r * cols;
        f[0] = 0;
        f[cols + 1] = 0;
        for (long c = 0; c < cols; c++) f[c + 1] = o[c] == 0;
    }
    long src = (goal / cols + 1) * pc + goal % cols + 1;
    long settled = 0;
    if (fr[src]) {
        long cap = 1024 + rows * cols / 4, n = 0;
        item *h = malloc(cap * sizeof(item));
        const double s2 = sqrt(2.0);
        g[src] = 0.0;
        h[n++] = (item){0.0, (int32_t)src};
        while (n > 0) {
            item top = h[0];
            h[0] = h[--n];
            if (n) sift_down(h, n, 0);
            long u = top.node;
            if (done[u]) continue;
            done[u] = 1;
            settled++;
            double gu = top.key;
            long on[4] = {u - pc, u + 1, u + pc, u - 1};
            for (int k = 0; k < 4; k++) {
                long v = on[k];
                double nv = gu + 1.0;
                if (fr[v] && nv < g[v]) {
                    g[v] = nv;
                    if (n == cap) { cap *= 2; h = realloc(h, cap * sizeof(item)); }
                    h[n] = (item){nv, (int32_t)v};
                    sift_up(h, n++);
                }
            }
            /* NE, SE, SW, NW: both orthogonal side cells free */
            long dn[4] = {u - pc + 1, u + pc + 1, u + pc - 1, u - pc - 1};
            long sa[4] = {u - pc, u + 1, u + pc, u - 1};
            long sb[4] = {u + 1, u + pc, u - 1, u - pc};
            for (int k = 0; k < 4; k++) {
                long v = dn[k];
                double nv = gu + s2;
                if (fr[v] && fr[sa[k]] && fr[sb[k]] && nv < g[v]) {
                    g[v] = nv;
                    if (n == cap) { cap *= 2; h = realloc(h, cap * sizeof(item)); }
                    h[n] = (item){nv, (int32_t)v};
                    sift_up(h, n++);
                }
            }
        }
        free(h);
    }
    free(fr);
    free(done);
    return settled;
}
