// Ranks the hands of a file with OMPEval (github.com/zekyll/OMPEval), for benchmarks/bench_evaluator_omp.py.
//
// Build beside the project (OMPEval is fetched and built outside it, never committed):
//   g++ -O3 -std=c++11 -I <OMPEval> -o ompeval_driver ompeval_driver.cpp <OMPEval>/omp/HandEvaluator.cpp
// (OMPEval's Makefile's -O3, the build BENCHMARKS.md reports; -march=native ran slower on the Xeon measured there)
// Run:  ompeval_driver HANDS.u8 ROUNDS [OUT.u16]
//   HANDS.u8: N rows of 7 uint8 card indices (4 * rank + suit, rank 0 = deuce: OMPEval's and loki's card order).
//   Each round builds each hand from its seven cards (Hand::empty() + the seven card Hands, as OMPEval's own
//   "Rand1" benchmark) and stores its 16-bit rank in an array; prints the process CPU seconds of each round
//   (clock_gettime CLOCK_PROCESS_CPUTIME_ID) and writes the ranks of the last round to OUT.u16 if given.
#include <omp/HandEvaluator.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

static double cpu_seconds() {
    timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s HANDS.u8 ROUNDS [OUT.u16]\n", argv[0]);
        return 2;
    }
    FILE* f = std::fopen(argv[1], "rb");
    if (!f) {
        std::perror(argv[1]);
        return 2;
    }
    std::fseek(f, 0, SEEK_END);
    long bytes = std::ftell(f);
    std::fseek(f, 0, SEEK_SET);
    size_t n = (size_t)bytes / 7;
    std::vector<uint8_t> cards((size_t)bytes);
    if (std::fread(cards.data(), 1, cards.size(), f) != cards.size()) {
        std::perror("read");
        return 2;
    }
    std::fclose(f);
    int rounds = std::atoi(argv[2]);
    std::vector<uint16_t> out(n);
    omp::HandEvaluator eval;
    for (int r = 0; r < rounds; ++r) {
        double t = cpu_seconds();
        const uint8_t* c = cards.data();
        for (size_t i = 0; i < n; ++i, c += 7) {
            omp::Hand h = omp::Hand::empty();
            h += omp::Hand(c[0]);
            h += omp::Hand(c[1]);
            h += omp::Hand(c[2]);
            h += omp::Hand(c[3]);
            h += omp::Hand(c[4]);
            h += omp::Hand(c[5]);
            h += omp::Hand(c[6]);
            out[i] = eval.evaluate(h);
        }
        std::printf("%.6f\n", cpu_seconds() - t);
        std::fflush(stdout);
    }
    if (argc > 3) {
        FILE* g = std::fopen(argv[3], "wb");
        std::fwrite(out.data(), 2, n, g);
        std::fclose(g);
    }
    return 0;
}
