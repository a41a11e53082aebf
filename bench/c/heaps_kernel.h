/* The kernel of heaps.c for one type of the copy of the values (T, suffix S): included once per type.
   A line-by-line transcription of nimjos/games/heaps/fast.py (_matches, _scan, _kernel). */
#define CAT2(a, b) a##_##b
#define CAT(a, b) CAT2(a, b)

static uint8_t CAT(matches, S)(const T *x, const T *y, long n, T v) {
    uint8_t hit = 0;
    for (long t = 0; t < n; t++) hit |= (uint8_t)((T)(x[t] ^ y[t]) == v);
    return hit;
}

static long CAT(scan, S)(const T *h, const T *back, long N, int64_t *seen, int64_t *wanted, long need, long m,
                         const long *rs, const long *halves, long nk, long streams, long few_block, int64_t *stats) {
    long width[16], most = 0;
    for (long q = 0; q < nk; q++) {
        width[q] = (halves[q] + streams - 1) / streams;
        if (width[q] > most) most = width[q];
    }
    long i = 0;
    while (i < most && need) {
        int marking = need > FEW;
        long top_i = i + (marking ? BLOCK : few_block);
        for (long q = 0; q < nk; q++) {
            long w = width[q];
            if (i >= w) continue;
            long r = rs[q], half = halves[q], ti = w < top_i ? w : top_i, off = N - 1 - r;
            for (long j = 0; j < streams; j++) {
                long lo = 1 + j * w + i, hi = 1 + j * w + ti;
                if (hi > half + 1) hi = half + 1;
                if (hi <= lo) break;
                if (marking) {
                    for (long a = lo; a < hi; a++) seen[h[a] ^ h[r - a]] = m;
                    stats[0] += hi - lo;
                } else {
                    for (long t = 0; t < need; t++) {
                        int64_t v = wanted[t];
                        if (seen[v] != m) {
                            stats[1] += hi - lo;
                            if (CAT(matches, S)(h + lo, back + off + lo, hi - lo, (T)v)) seen[v] = m;
                        }
                    }
                }
            }
        }
        i = top_i;
        need = drop_seen(seen, wanted, need, m);
    }
    return need;
}

static void CAT(mark_first, S)(const T *h, int64_t *seen, long m, const long *rs, const long *halves, long nk,
                               int64_t *stats) {
    for (long q = 0; q < nk; q++) {
        long r = rs[q], hi = halves[q] < FIRST_SPLITS ? halves[q] : FIRST_SPLITS;
        for (long a = 1; a <= hi; a++) seen[h[a] ^ h[r - a]] = m;
        stats[0] += hi;
    }
}

/* returns next index; *why = 0 done, 1 widen, 2 give way */
static long CAT(kernel, S)(const int64_t *digits, long L, int unequal, int64_t *g, T *h, T *back, long N, long start,
                           long stop, long limit, int rare_mode, long give_way, int64_t mask, int shift, int kpar,
                           int64_t *stats, int *why) {
    int64_t *seen = malloc((limit + 1) * sizeof(int64_t));
    for (long v = 0; v <= limit; v++) seen[v] = -1;
    long ks[16], rs[16], halves[16], nsplit = 0;
    for (long k = 0; k < L; k++) if (digits[k] & 4) ks[nsplit++] = k;
    long cap = rare_mode ? stop + 1 : 1;
    long *rare = malloc(cap * sizeof(long));
    T *rval = malloc(cap * sizeof(T));
    int64_t *wanted = malloc((limit + 1) * sizeof(int64_t));
    int64_t *par = malloc((limit + 1) * sizeof(int64_t));
    for (long v = 0; v <= limit; v++) par[v] = __builtin_parityll(v & mask);
    long result = stop + 1;
    *why = 0;
    for (long i = 0; i < start; i++) if (g[i] >= limit) { *why = 1; result = start; goto done; }
    long nr = 0;
    if (rare_mode)
        for (long i = 1; i < start; i++)
            if (par[g[i]] == shift * (i & 1)) { rare[nr] = i; rval[nr] = h[i]; nr++; }
    for (long m = start; m <= stop; m++) {
        if (give_way && nr * give_way > m) { *why = 2; result = m; goto done; }
        long top = L - 1 < m ? L - 1 : m;
        for (long k = 0; k <= top; k++) {
            int64_t d = digits[k];
            long r = m - k;
            if ((d & 1) && r == 0) seen[0] = m;
            if ((d & 2) && r >= 1) seen[h[r]] = m;
        }
        long nq = 0;
        for (long q = 0; q < nsplit; q++) {
            long r = m - ks[q];
            long half = unequal ? (r - 1) / 2 : r / 2;
            if (r >= 1 && half >= 1) { rs[nq] = r; halves[nq] = half; nq++; }
        }
        long v;
        if (rare_mode) {
            for (long q = 0; q < nq; q++) {
                long r = rs[q];
                long jr = nr;
                while (jr > 0 && rare[jr - 1] >= r) jr--;
                long je = jr;
                if (unequal && r % 2 == 0 && par[h[r / 2]] == shift * ((r / 2) & 1)) {
                    long lo = 0, hi = jr;  /* searchsorted(rare[:jr], r / 2) */
                    while (lo < hi) { long mid = (lo + hi) / 2; if (rare[mid] < r / 2) lo = mid + 1; else hi = mid; }
                    je = lo;
                }
                for (long j = 0; j < je; j++) seen[rval[j] ^ h[r - rare[j]]] = m;
                for (long j = je + 1; j < jr; j++) seen[rval[j] ^ h[r - rare[j]]] = m;
            }
            int cheap = 1 ^ (shift * ((m - kpar) & 1));
            long c = 0;
            while (c < limit && (seen[c] == m || par[c] != cheap)) c++;
            long need = 0;
            for (long u = 0; u < c; u++) if (seen[u] != m) wanted[need++] = u;
            if (need) {
                CAT(mark_first, S)(h, seen, m, rs, halves, nq, stats);
                need = drop_seen(seen, wanted, need, m);
            }
            if (need) need = CAT(scan, S)(h, back, N, seen, wanted, need, m, rs, halves, nq, STREAMS, FEW_BLOCK, stats);
            v = c;
            for (long t = 0; t < need; t++) if (wanted[t] < v) v = wanted[t];
        } else {
            CAT(mark_first, S)(h, seen, m, rs, halves, nq, stats);
            v = 0;
            for (;;) {
                while (seen[v] == m) v++;
                if (v >= limit) break;
                wanted[0] = v;
                if (CAT(scan, S)(h, back, N, seen, wanted, 1, m, rs, halves, nq, 1, PLAIN_BLOCK, stats)) break;
            }
        }
        if (v >= limit) { *why = 1; result = m; goto done; }
        g[m] = v; h[m] = (T)v; back[N - 1 - m] = (T)v;
        if (rare_mode && m >= 1 && par[v] == shift * (m & 1)) { rare[nr] = m; rval[nr] = (T)v; nr++; }
    }
done:
    free(seen); free(rare); free(rval); free(wanted); free(par);
    return result;
}
#undef CAT
#undef CAT2
