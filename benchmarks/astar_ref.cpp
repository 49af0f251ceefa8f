// Plain C++ reference for robomaze's 8-connected grid search: A* (octile
// heuristic) or Dijkstra over a free mask, moves N E S W NE SE SW NW, a
// diagonal (cost sqrt 2) only when both orthogonal cells beside it are free
// (no corner cutting), a binary heap of (f, g, node) ordered on f and, on
// equal f, larger g first -- the same rules and tie-breaking as
// robomaze._search, so both expand exactly the same nodes.
//
// The textbook way: g/closed/parent arrays allocated per search, bounds
// checks by row and column, a std::vector heap with its own sift (hole, no
// swaps); each search ends by walking the parents into the cell path, as a
// planner must.
//
// usage: astar_ref GRID.raw ROWS COLS PAIRS.txt MODE
//   GRID.raw: ROWS*COLS bytes, 1 = free, 0 = occupied (row-major)
//   PAIRS.txt: lines "start_index goal_index"
//   MODE: "astar" or "dijkstra"
// prints one line per pair "<length> <expanded> <path cells>", then
//   "<wall s> <cpu s>" for all searches (allocation included, file I/O not).
// Built by benchmarks/bench_plan.py with g++ -O3 -march=native.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

static double clock_s(clockid_t id) {
    timespec ts;
    clock_gettime(id, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

struct Heap {
    std::vector<double> k, g;
    std::vector<int64_t> n;
    size_t size = 0;
    void push(double key, double gv, int64_t node) {
        if (size == k.size()) {
            k.resize(2 * size + 16);
            g.resize(2 * size + 16);
            n.resize(2 * size + 16);
        }
        size_t i = size++;
        while (i > 0) {
            size_t p = (i - 1) >> 1;
            if (k[p] < key || (k[p] == key && g[p] >= gv)) break;
            k[i] = k[p]; g[i] = g[p]; n[i] = n[p];
            i = p;
        }
        k[i] = key; g[i] = gv; n[i] = node;
    }
    void pop(int64_t &node, double &gv) {
        node = n[0]; gv = g[0];
        --size;
        double key = k[size], gl = g[size];
        int64_t nl = n[size];
        size_t i = 0;
        for (;;) {
            size_t ch = 2 * i + 1;
            if (ch >= size) break;
            if (ch + 1 < size && (k[ch + 1] < k[ch] || (k[ch + 1] == k[ch] && g[ch + 1] > g[ch])))
                ++ch;
            if (key < k[ch] || (key == k[ch] && gl >= g[ch])) break;
            k[i] = k[ch]; g[i] = g[ch]; n[i] = n[ch];
            i = ch;
        }
        if (size > 0) { k[i] = key; g[i] = gl; n[i] = nl; }
    }
};

static const int DR[8] = {-1, 0, 1, 0, -1, 1, 1, -1};
static const int DC[8] = {0, 1, 0, -1, 1, 1, -1, -1};

static double octile(long dr, long dc) {
    dr = labs(dr); dc = labs(dc);
    return dr < dc ? (dc - dr) + M_SQRT2 * dr : (dr - dc) + M_SQRT2 * dc;
}

static double search(const uint8_t *free_, long rows, long cols, long s, long t, bool astar,
                     long &expanded, std::vector<long> &path) {
    long n = rows * cols;
    std::vector<double> g(n, INFINITY);
    std::vector<uint8_t> closed(n, 0);
    std::vector<long> parent(n);
    parent[s] = -1;
    path.clear();
    Heap h;
    long tr = t / cols, tc = t % cols;
    g[s] = 0.0;
    h.push(astar ? octile(s / cols - tr, s % cols - tc) : 0.0, 0.0, s);
    expanded = 0;
    while (h.size) {
        int64_t u; double gu;
        h.pop(u, gu);
        if (closed[u] || gu > g[u]) continue;
        closed[u] = 1;
        ++expanded;
        if (u == t) {
            for (long v = t; v >= 0; v = parent[v]) path.push_back(v);
            return gu;
        }
        long r = u / cols, c = u % cols;
        for (int k = 0; k < 8; ++k) {
            long rr = r + DR[k], cc = c + DC[k];
            if (rr < 0 || rr >= rows || cc < 0 || cc >= cols) continue;
            long v = rr * cols + cc;
            if (!free_[v] || closed[v]) continue;
            if (k >= 4 && !(free_[rr * cols + c] && free_[r * cols + cc])) continue;
            double ng = gu + (k < 4 ? 1.0 : M_SQRT2);
            if (ng < g[v]) {
                g[v] = ng;
                parent[v] = u;
                h.push(ng + (astar ? octile(rr - tr, cc - tc) : 0.0), ng, v);
            }
        }
    }
    return -1.0;
}

int main(int argc, char **argv) {
    if (argc < 6) {
        fprintf(stderr, "usage: %s GRID.raw ROWS COLS PAIRS.txt astar|dijkstra\n", argv[0]);
        return 2;
    }
    long rows = atol(argv[2]), cols = atol(argv[3]);
    bool astar = strcmp(argv[5], "astar") == 0;
    long n = rows * cols;
    std::vector<uint8_t> free_(n);
    FILE *f = fopen(argv[1], "rb");
    if (!f || fread(free_.data(), 1, n, f) != (size_t)n) {
        fprintf(stderr, "cannot read %ld bytes from %s\n", n, argv[1]);
        return 1;
    }
    fclose(f);
    std::vector<long> ps, pt;
    FILE *pf = fopen(argv[4], "r");
    long a, b;
    while (pf && fscanf(pf, "%ld %ld", &a, &b) == 2) { ps.push_back(a); pt.push_back(b); }
    if (pf) fclose(pf);
    std::vector<double> len(ps.size());
    std::vector<long> exp(ps.size()), cells(ps.size());
    std::vector<long> path;
    double w0 = clock_s(CLOCK_MONOTONIC), c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
    for (size_t i = 0; i < ps.size(); ++i) {
        len[i] = search(free_.data(), rows, cols, ps[i], pt[i], astar, exp[i], path);
        cells[i] = (long)path.size();
    }
    double w1 = clock_s(CLOCK_MONOTONIC), c1 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
    for (size_t i = 0; i < ps.size(); ++i) printf("%.10f %ld %ld\n", len[i], exp[i], cells[i]);
    printf("%.6f %.6f\n", w1 - w0, c1 - c0);
    return 0;
}
