/* The strongest native octile Dijkstra field we write here (issue 40, round 8).
 *
 * dijkstra8_ring: 8-connected octile distances (moves 1 and sqrt 2, a
 *   diagonal only when both orthogonal cells beside it are free: no corner
 *   cutting) from one source over a padded grid (sentinel border, no bounds
 *   checks), with a bucket queue instead of a heap: every move is at least
 *   1 long, so the cells whose distance lies in [k, k + 1) cannot improve
 *   one another and the whole bucket is final when it is reached (Dinitz's
 *   rule); a move lands 1 or 2 buckets ahead, so three buckets in a ring are
 *   the whole queue. No settled marks (a move from bucket k offers at least
 *   k + 1, more than any settled distance); a cell improved inside its
 *   bucket is not queued again, a stale entry (its cell moved to a lower
 *   bucket) is skipped when read. int32 node indices, the bucket index by a
 *   truncating cast (distances are >= 0).
 *
 * The binary-heap form of the same field is dijkstra8 in padded_bfs.c; the
 * benchmark (bench_octile_peer.py) takes the faster of the two per grid.
 *
 * Inputs: occ = rows*cols bytes, nonzero = blocked. The output g is padded
 * ((rows + 2) * (cols + 2) doubles, +inf where unreached); the caller
 * allocates it and reads the inner part. Returns the number of cells popped.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct { int32_t *a; long n, cap; } bucket;

static inline void push(bucket *b, int32_t v) {
    if (b->n == b->cap) {
        b->cap *= 2;
        b->a = realloc(b->a, b->cap * sizeof(int32_t));
    }
    b->a[b->n++] = v;
}

static inline void relax(double *g, bucket *q, long v, double nv) {
    double old = g[v];
    if (nv < old) {
        g[v] = nv;
        long nb = (long)nv;
        if (old == INFINITY || (long)old != nb) push(&q[nb % 3], (int32_t)v);
    }
}

long dijkstra8_ring(const uint8_t *occ, long rows, long cols, long goal, double *g) {
    long pc = cols + 2;
    long total = (rows + 2) * pc;
    uint8_t *fr = malloc(total);     /* padded free mask */
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
    long popped = 0;
    if (fr[src]) {
        const double s2 = sqrt(2.0);
        bucket q[3];
        for (int b = 0; b < 3; b++) {
            q[b].cap = 1024;
            q[b].n = 0;
            q[b].a = malloc(q[b].cap * sizeof(int32_t));
        }
        g[src] = 0.0;
        push(&q[0], (int32_t)src);
        int empty = 0;
        for (long k = 0; empty < 3; k++) {
            bucket *b = &q[k % 3];
            if (b->n == 0) { empty++; continue; }
            empty = 0;
            /* moves land in k + 1 and k + 2: this bucket is not written while read */
            for (long i = 0; i < b->n; i++) {
                long u = b->a[i];
                double gu = g[u];
                if ((long)gu != k) continue;     /* queued again in a lower bucket */
                popped++;
                double g1 = gu + 1.0, g2 = gu + s2;
                int up = fr[u - pc], dn = fr[u + pc], lf = fr[u - 1], rt = fr[u + 1];
                if (up) relax(g, q, u - pc, g1);
                if (rt) relax(g, q, u + 1, g1);
                if (dn) relax(g, q, u + pc, g1);
                if (lf) relax(g, q, u - 1, g1);
                if (up && rt && fr[u - pc + 1]) relax(g, q, u - pc + 1, g2);
                if (dn && rt && fr[u + pc + 1]) relax(g, q, u + pc + 1, g2);
                if (dn && lf && fr[u + pc - 1]) relax(g, q, u + pc - 1, g2);
                if (up && lf && fr[u - pc - 1]) relax(g, q, u - pc - 1, g2);
            }
            b->n = 0;
        }
        for (int i = 0; i < 3; i++) free(q[i].a);
    }
    free(fr);
    return popped;
}
