/* mm_parse.c — number parsing for the readers. Integers: hand-written with
 * overflow checks. Doubles: Clinger's exact fast path (mantissa <= 2^53,
 * |decimal exponent| <= 22: one correctly rounded multiply or divide gives
 * the same bits as strtod), an exact 128-bit integer path for 16-19 digit
 * mantissas (%.17g output), strtod for everything else (20+ digits, large
 * exponents, hex, nan, inf; never white space, which strtod would skip).
 * Never fails loudly: a bad token returns NULL and the caller writes the
 * message. */
#include "io_internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

const char *sylva__parse_int64_slow(const char *p, int64_t *out)
{
    int neg = 0;
    if (*p == '-') {
        neg = 1;
        p++;
    } else if (*p == '+') {
        p++;
    }
    if ((unsigned)(*p - '0') > 9) return NULL;
    uint64_t v = 0;
    while ((unsigned)(*p - '0') <= 9) {
        unsigned d = (unsigned)(*p - '0');
        if (v > (UINT64_C(9223372036854775807) - d) / 10) return NULL;
        v = v * 10 + d;
        p++;
    }
    if (!sylva__is_delim(*p)) return NULL;
    *out = neg ? -(int64_t)v : (int64_t)v;
    return p;
}

static const double pow10_exact[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

#if defined(__SIZEOF_INT128__)
#define SYLVA_HAVE_INT128 1
typedef unsigned __int128 u128;
static const uint64_t pow10_u64[20] = {
    UINT64_C(1), UINT64_C(10), UINT64_C(100), UINT64_C(1000), UINT64_C(10000), UINT64_C(100000),
    UINT64_C(1000000), UINT64_C(10000000), UINT64_C(100000000), UINT64_C(1000000000),
    UINT64_C(10000000000), UINT64_C(100000000000), UINT64_C(1000000000000),
    UINT64_C(10000000000000), UINT64_C(100000000000000), UINT64_C(1000000000000000),
    UINT64_C(10000000000000000), UINT64_C(100000000000000000), UINT64_C(1000000000000000000),
    UINT64_C(10000000000000000000)};

/* 2^-k as a double, 0 < k < 1022. */
static inline double pow2_neg(int k)
{
    uint64_t bits = (uint64_t)(1023 - k) << 52;
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}
#else
#define SYLVA_HAVE_INT128 0
#endif

/* strtod, but on the token at s only: strtod skips leading white space,
 * newlines included, so a value token that is a lone vertical tab or form
 * feed would be read from the next line (and, in a parallel chunk, past the
 * chunk's end). A token starts at a non-blank, so white space there is not a
 * number. */
static const char *parse_double_slow(const char *s, double *out, int *erange)
{
    if (isspace((unsigned char)*s)) return NULL;
    char *end;
    errno = 0;
    double d = strtod(s, &end);
    if (end == s || !sylva__is_delim(*end)) return NULL;
    if (errno == ERANGE) *erange = 1;
    *out = d;
    return end;
}

const char *sylva__parse_double_full(const char *s, double *out, int *erange)
{
    const char *p = s;
    *erange = 0;
    int neg = 0;
    if (*p == '-') {
        neg = 1;
        p++;
    } else if (*p == '+') {
        p++;
    }
    uint64_t m = 0;
    int nd = 0, any = 0;
    int64_t e10 = 0;
    while (*p == '0') {
        p++;
        any = 1;
    }
    while ((unsigned)(*p - '0') <= 9) {
        if (nd == 19) return parse_double_slow(s, out, erange);
        m = m * 10 + (uint64_t)(*p - '0');
        nd++;
        p++;
        any = 1;
    }
    if (*p == '.') {
        p++;
        if (m == 0)
            while (*p == '0') {
                p++;
                e10--;
                any = 1;
            }
        while ((unsigned)(*p - '0') <= 9) {
            if (nd == 19) return parse_double_slow(s, out, erange);
            m = m * 10 + (uint64_t)(*p - '0');
            nd++;
            e10--;
            p++;
            any = 1;
        }
    }
    if (!any) return parse_double_slow(s, out, erange); /* nan, inf, garbage */
    if (*p == 'e' || *p == 'E') {
        p++;
        int eneg = 0;
        if (*p == '-') {
            eneg = 1;
            p++;
        } else if (*p == '+') {
            p++;
        }
        if ((unsigned)(*p - '0') > 9) return parse_double_slow(s, out, erange);
        int64_t ex = 0;
        while ((unsigned)(*p - '0') <= 9) {
            if (ex < 100000) ex = ex * 10 + (*p - '0');
            p++;
        }
        e10 += eneg ? -ex : ex;
    }
    if (!sylva__is_delim(*p)) return parse_double_slow(s, out, erange);
    if (m == 0) {
        *out = neg ? -0.0 : 0.0;
        return p;
    }
    if (m <= (UINT64_C(1) << 53) && e10 >= -22 && e10 <= 22) {
        double d = (double)m;
        d = e10 < 0 ? d / pow10_exact[-e10] : d * pow10_exact[e10];
        *out = neg ? -d : d;
        return p;
    }
#if SYLVA_HAVE_INT128
    /* 16 to 19 digits (what %.17g writes), exactly, in 128-bit integers:
     * m·10^e (e <= 19) is an exact integer that the compiler's conversion
     * rounds once. m/10^k (k <= 19): q = m·2^s / 10^k with s chosen so that
     * 2^61 < q < 2^63 (a 128-by-64 division with a 64-bit quotient), then
     * (2q + sticky remainder bit) has 63+ bits and its one rounding to
     * double is strtod's, and the scaling by 2^-(s+1) is exact. No long
     * double, so it is also right under valgrind. */
    if (e10 >= 0 && e10 <= 19) {
        double d = (double)((u128)m * pow10_u64[e10]);
        *out = neg ? -d : d;
        return p;
    }
    if (e10 < 0 && e10 >= -19) {
        uint64_t den = pow10_u64[-e10];
        int bm = 64 - __builtin_clzll(m), bd = 64 - __builtin_clzll(den);
        int sh = 62 - bm + bd;
        u128 num = (u128)m << sh;
        uint64_t q = (uint64_t)(num / den), r = (uint64_t)(num - (u128)q * den);
        double d = (double)((q << 1) | (r != 0)) * pow2_neg(sh + 1);
        *out = neg ? -d : d;
        return p;
    }
#endif
    return parse_double_slow(s, out, erange);
}

const char *sylva__token(const char *p, char *buf, size_t cap)
{
    size_t k = 0;
    if (cap == 0) return buf;
    while (!sylva__is_delim(p[k]) && k + 1 < cap && k < 40) {
        buf[k] = p[k];
        k++;
    }
    buf[k] = '\0';
    if (!sylva__is_delim(p[k]) && k >= 3 && k < cap) {
        buf[k - 3] = buf[k - 2] = buf[k - 1] = '.';
    }
    return buf;
}
