/* Times phevaluator's C core (HenryRLee's PH Evaluator: evaluate_7cards of the installed wheel's extension
   module, loaded with dlopen, so no Python call is timed) on 10 M random hands from a pregenerated uint8 array
   (best of 5) and on the sequential enumeration of all 133,784,560 7-card hands (best of 2); CPU time.
   For BENCHMARKS.md "Gap to the fastest C++ evaluators".  Build and run:

     gcc -O2 -o /tmp/pheval_c_core benchmarks/pheval_c_core.c -ldl
     /tmp/pheval_c_core "$(python -c 'import phevaluator._pheval as m; print(m.__file__)')"
*/
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef int (*eval7_t)(int, int, int, int, int, int, int);

static double cpu(void) { return (double)clock() / CLOCKS_PER_SEC; }

int main(int argc, char **argv) {
  void *h = dlopen(argv[1], RTLD_LAZY);
  if (!h) { fprintf(stderr, "%s\n", dlerror()); return 1; }
  eval7_t ev = (eval7_t)dlsym(h, "evaluate_7cards");
  long n = 10000000;
  uint8_t *hands = malloc(n * 7);
  uint64_t s = 88172645463325252ull;
  for (long i = 0; i < n; i++) {
    uint64_t used = 0;
    for (int j = 0; j < 7;) {
      s ^= s << 13; s ^= s >> 7; s ^= s << 17;
      int c = (int)(s % 52);
      if (!((used >> c) & 1)) { used |= 1ull << c; hands[i * 7 + j++] = (uint8_t)c; }
    }
  }
  double best = 1e9; long sum = 0;
  for (int r = 0; r < 5; r++) {
    double t = cpu();
    for (long i = 0; i < n; i++) {
      const uint8_t *p = hands + i * 7;
      sum += ev(p[0], p[1], p[2], p[3], p[4], p[5], p[6]);
    }
    t = cpu() - t; if (t < best) best = t;
  }
  printf("random: %.1f M evals/s (best of 5, CPU), checksum %ld\n", n / best / 1e6, sum);
  best = 1e9;
  for (int r = 0; r < 2; r++) {
    double t = cpu(); long cnt = 0;
    for (int a = 0; a < 46; a++) for (int b = a + 1; b < 47; b++) for (int c = b + 1; c < 48; c++)
    for (int d = c + 1; d < 49; d++) for (int e = d + 1; e < 50; e++) for (int f = e + 1; f < 51; f++)
    for (int g = f + 1; g < 52; g++) { sum += ev(a, b, c, d, e, f, g); cnt++; }
    t = cpu() - t; if (t < best) best = t;
    if (r == 0) printf("sequential: %ld hands\n", cnt);
  }
  printf("sequential: %.1f M evals/s (best of 2, CPU), checksum %ld\n", 133784560 / best / 1e6, sum);
  return 0;
}
