/* Grundy values g(0..n) of a heap game with a finite code (at most two heaps left by a move), by the SAME method
   as nimjos/games/heaps/fast.py (plain mex for the first MASK_PREFIX heaps, the mask chosen on them, the
   rare-value method that gives way to the plain mex when a quarter of the heaps are rare; the copy of the values
   one byte wide, then two, then eight as they grow) and, with --extend, nimjos/games/heaps/grow.py (once the
   table is periodic over its last two thirds and the Guy-Smith theorem's range is covered, the rest is the
   period's repetition). Written for bench/bench_heaps_c.py: compile with gcc -O3 -march=native.

   usage: heaps CODE N [auto|plain|rare] [--extend] [--out FILE]
          heaps CODE CHUNK --reach SECONDS    (the table grown CHUNK heaps at a time until SECONDS of CPU time)
   CODE: an octal code such as 0.77, 0.07 or 4.07; "grundy" for Grundy's game (4. with unequal parts).
   Prints: n, the checksum (the sum of (g(i) + 1) * (i * 0x9E3779B97F4A7C15 + 1) modulo 2^64), the largest value, splits marked and
   (value, split) comparisons, and the heap from which the period extended the table (-1: none). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BLOCK 16
#define STREAMS 32
#define FEW 2
#define FEW_BLOCK 128
#define MASK_PREFIX 2000
#define MASK_BITS 8
#define GIVE_WAY 4
#define FIRST_SPLITS 32
#define PLAIN_BLOCK 2048
#define FIRST_ROUND 4096
#define ALL_BITS ((((int64_t)1) << 62) - 1)

static long drop_seen(const int64_t *seen, int64_t *wanted, long need, long m) {
    long t = 0;
    while (t < need) {
        if (seen[wanted[t]] == m) { need--; wanted[t] = wanted[need]; }
        else t++;
    }
    return need;
}

#define T uint8_t
#define S u8
#include "heaps_kernel.h"
#undef T
#undef S
#define T uint16_t
#define S u16
#include "heaps_kernel.h"
#undef T
#undef S
#define T int64_t
#define S i64
#include "heaps_kernel.h"
#undef T
#undef S

static int64_t digits[16];
static long L;
static int unequal;

static void compiled(int64_t *g, long start, long n, int64_t *stats, int rare_mode, long give_way, int64_t mask,
                     int shift, int kpar) {
    long limit = 256;
    while (start <= n) {
        int64_t top = 0;
        for (long i = 0; i < start; i++) if (g[i] > top) top = g[i];
        while (limit <= top) limit *= 2;
        long N = n + 1;
        int why;
        if (limit <= 256) {
            uint8_t *h = malloc(N), *back = malloc(N);
            for (long i = 0; i < N; i++) { h[i] = (uint8_t)g[i]; back[N - 1 - i] = (uint8_t)g[i]; }
            start = kernel_u8(digits, L, unequal, g, h, back, N, start, n, limit, rare_mode, give_way, mask, shift, kpar, stats, &why);
            free(h); free(back);
        } else if (limit <= 65536) {
            uint16_t *h = malloc(2 * N), *back = malloc(2 * N);
            for (long i = 0; i < N; i++) { h[i] = (uint16_t)g[i]; back[N - 1 - i] = (uint16_t)g[i]; }
            start = kernel_u16(digits, L, unequal, g, h, back, N, start, n, limit, rare_mode, give_way, mask, shift, kpar, stats, &why);
            free(h); free(back);
        } else {
            int64_t *h = malloc(8 * N), *back = malloc(8 * N);
            for (long i = 0; i < N; i++) { h[i] = g[i]; back[N - 1 - i] = g[i]; }
            start = kernel_i64(digits, L, unequal, g, h, back, N, start, n, limit, rare_mode, give_way, mask, shift, kpar, stats, &why);
            free(h); free(back);
        }
        if (why == 1) limit *= 2;
        else if (why == 2) { rare_mode = 0; give_way = 0; }
    }
}

/* choose_mask of fast.py: the fewest rare heaps among g[1..head] */
static void choose_mask(const int64_t *g, long head, int nshifts, int64_t *mask, int *shift) {
    int64_t top = 0;
    for (long i = 1; i <= head; i++) if (g[i] > top) top = g[i];
    int b = 0;
    while (b < 63 && (top >> b)) b++;
    if (b > MASK_BITS) b = MASK_BITS;
    int64_t high = ALL_BITS & ~((((int64_t)1) << b) - 1);
    long best = head + 1;
    *mask = 0; *shift = 0;
    for (int64_t low = 0; low < (((int64_t)1) << b); low++) {
        int64_t m = low | high;
        for (int s = 0; s < nshifts; s++) {
            long rare = 0;
            for (long x = 1; x <= head; x++) rare += __builtin_parityll(g[x] & m) == s * (x & 1);
            if (rare < best) { best = rare; *mask = m; *shift = s; }
        }
    }
}

static void sequence(int64_t *g, long start, long n, const char *method, int64_t *stats) {
    int splits = 0, parities = 0;
    for (long k = 0; k < L; k++) if (digits[k] & 4) { splits = 1; parities |= 1 << (k & 1); }
    int rare = strcmp(method, "plain") != 0 && splits;
    if (rare) {
        long head = n < MASK_PREFIX ? n : MASK_PREFIX;
        if (start <= head) compiled(g, start, head, stats, 0, 0, 0, 0, 0);
        if (start < head + 1) start = head + 1;
        int one = parities == 1 || parities == 2;
        int kpar = parities == 2 ? 1 : 0;
        int64_t mask; int shift;
        choose_mask(g, head, one ? 2 : 1, &mask, &shift);
        compiled(g, start, n, stats, 1, strcmp(method, "rare") == 0 ? 0 : GIVE_WAY, mask, shift, kpar);
    } else {
        compiled(g, start, n, stats, 0, 0, 0, 0, 0);
    }
}

/* grow.py's period: the least p <= (N + 1) / 6 whose agreement g(m + p) = g(m) runs from n0 <= (N + 1) / 3 to the
   table's end; then the Guy-Smith range (J = 2 parts, t the most tokens taken) must lie inside the table */
static int proved_period(const int64_t *g, long N, long *p_out, long *n0_out) {
    long t = 0;
    for (long k = 0; k < L; k++) if (digits[k]) t = k;
    int parts = 1;
    for (long k = 0; k < L; k++) if (digits[k] & 4) parts = 2;
    for (long p = 1; p <= (N + 1) / 6; p++) {
        long m = N - p;
        while (m >= 0 && g[m + p] == g[m]) m--;
        long n0 = m + 1;
        if (n0 > (N + 1) / 3) continue;
        long n1 = n0 > 1 ? n0 : 1;
        long hi = parts * n1 + (parts - 1) * p + t;
        if (hi + p > N + 1) return 0;
        *p_out = p; *n0_out = n0;
        return 1;
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: heaps CODE N [auto|plain|rare] [--extend] [--out FILE]\n"); return 2; }
    const char *code = argv[1], *method = "auto", *out = NULL;
    long n = atol(argv[2]);
    int extend = 0;
    double reach = 0;
    for (int i = 3; i < argc; i++) {
        if (!strcmp(argv[i], "--extend")) extend = 1;
        else if (!strcmp(argv[i], "--out") && i + 1 < argc) out = argv[++i];
        else if (!strcmp(argv[i], "--reach") && i + 1 < argc) reach = atof(argv[++i]);
        else method = argv[i];
    }
    if (!strcmp(code, "grundy")) { digits[0] = 4; L = 1; unequal = 1; }
    else {
        const char *dot = strchr(code, '.');
        if (!dot) { fprintf(stderr, "bad code\n"); return 2; }
        digits[0] = dot > code ? code[0] - '0' : 0;
        L = 1;
        for (const char *c = dot + 1; *c && L < 16; c++) digits[L++] = *c - '0';
        while (L > 1 && digits[L - 1] == 0) L--;
        unequal = 0;
    }
    int64_t stats[2] = {0, 0};
    if (reach > 0) {
        /* grow the table chunk by chunk (each chunk resumes from the values before it) until `reach` CPU seconds */
        long chunk = n, size = chunk;
        int64_t *g = calloc(size + 1, sizeof(int64_t));
        sequence(g, 0, size, method, stats);
        while ((double)clock() / CLOCKS_PER_SEC < reach) {
            g = realloc(g, (size + chunk + 1) * sizeof(int64_t));
            memset(g + size + 1, 0, chunk * sizeof(int64_t));
            sequence(g, size + 1, size + chunk, method, stats);
            size += chunk;
        }
        printf("reached %ld in %.2f s CPU\n", size, (double)clock() / CLOCKS_PER_SEC);
        free(g);
        return 0;
    }
    clock_t began = clock();
    int64_t *g = calloc(n + 1, sizeof(int64_t));
    long from = -1;
    if (extend && !unequal) {
        long N = n < FIRST_ROUND ? n : FIRST_ROUND, done = 0;
        for (;;) {
            sequence(g, done, N, method, stats);
            done = N + 1;
            long p, n0;
            if (proved_period(g, N, &p, &n0)) {
                for (long m = N + 1; m <= n; m++) g[m] = g[m - p];
                from = N + 1;
                break;
            }
            if (N == n) break;
            N = 2 * N < n ? 2 * N : n;
        }
    } else {
        sequence(g, 0, n, method, stats);
    }
    double compute_s = (double)(clock() - began) / CLOCKS_PER_SEC;
    uint64_t hash = 0;
    int64_t top = 0;
    for (long i = 0; i <= n; i++) {
        hash += ((uint64_t)g[i] + 1) * ((uint64_t)i * 0x9E3779B97F4A7C15ULL + 1);
        if (g[i] > top) top = g[i];
    }
    printf("n %ld checksum %016llx max %lld marked %lld compared %lld extended_from %ld compute_s %.3f\n", n,
           (unsigned long long)hash, (long long)top, (long long)stats[0], (long long)stats[1], from, compute_s);
    if (out) {
        FILE *f = fopen(out, "wb");
        fwrite(g, sizeof(int64_t), n + 1, f);
        fclose(f);
    }
    free(g);
    return 0;
}
