/* Plain C reference for the Lee/Moore wavefront: 4-connected BFS step counts
 * from one goal cell over a free mask, the textbook way (an int32 FIFO queue,
 * bounds checks by row/column, -1 = unreachable).
 *
 * usage: bfs_ref GRID.raw ROWS COLS GOAL_INDEX [REPEAT]
 *   GRID.raw: ROWS*COLS bytes, 1 = free, 0 = occupied (row-major).
 * prints: "<best wall s> <best cpu s> <reached cells> <sum of labels> <max label>"
 * The time covers allocation, initialisation and the BFS, not file I/O;
 * with REPEAT > 1 the best of the repeats is reported. CPU time is the
 * process CPU clock (user + system), robust on a loaded machine.
 * Built by benchmarks/bench_plan.py with gcc -O3 -march=native.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double clock_s(clockid_t id) {
    struct timespec ts;
    clock_gettime(id, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: %s GRID.raw ROWS COLS GOAL_INDEX [REPEAT]\n", argv[0]);
        return 2;
    }
    long rows = atol(argv[2]), cols = atol(argv[3]), goal = atol(argv[4]);
    int repeat = argc > 5 ? atoi(argv[5]) : 1;
    long n = rows * cols;
    uint8_t *free_ = malloc(n);
    FILE *f = fopen(argv[1], "rb");
    if (!f || fread(free_, 1, n, f) != (size_t)n) {
        fprintf(stderr, "cannot read %ld bytes from %s\n", n, argv[1]);
        return 1;
    }
    fclose(f);
    double best = 1e30, best_cpu = 1e30;
    long reached = 0, maxd = 0;
    long long sum = 0;
    for (int rep = 0; rep < repeat; rep++) {
        double t0 = clock_s(CLOCK_MONOTONIC), c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
        int32_t *dist = malloc(n * sizeof(int32_t));
        int32_t *queue = malloc(n * sizeof(int32_t));
        for (long i = 0; i < n; i++) dist[i] = -1;
        long head = 0, tail = 0;
        dist[goal] = 0;
        queue[tail++] = (int32_t)goal;
        while (head < tail) {
            int32_t cur = queue[head++];
            long r = cur / cols, c = cur - r * cols;
            int32_t d = dist[cur] + 1;
            if (r > 0 && free_[cur - cols] && dist[cur - cols] < 0) {
                dist[cur - cols] = d; queue[tail++] = cur - cols;
            }
            if (c < cols - 1 && free_[cur + 1] && dist[cur + 1] < 0) {
                dist[cur + 1] = d; queue[tail++] = cur + 1;
            }
            if (r < rows - 1 && free_[cur + cols] && dist[cur + cols] < 0) {
                dist[cur + cols] = d; queue[tail++] = cur + cols;
            }
            if (c > 0 && free_[cur - 1] && dist[cur - 1] < 0) {
                dist[cur - 1] = d; queue[tail++] = cur - 1;
            }
        }
        double dt = clock_s(CLOCK_MONOTONIC) - t0;
        double dc = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
        if (dt < best) best = dt;
        if (dc < best_cpu) best_cpu = dc;
        reached = head;
        sum = 0;
        maxd = 0;
        for (long i = 0; i < n; i++) {
            if (dist[i] >= 0) { sum += dist[i]; if (dist[i] > maxd) maxd = dist[i]; }
        }
        free(dist);
        free(queue);
    }
    printf("%.6f %.6f %ld %lld %ld\n", best, best_cpu, reached, sum, maxd);
    free(free_);
    return 0;
}
