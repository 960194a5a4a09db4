/* mm_parse.c — number parsing for the readers. Integers: hand-written with
 * overflow checks. Doubles: Clinger's exact fast path (mantissa <= 2^53,
 * |decimal exponent| <= 22: one correctly rounded multiply or divide gives
 * the same bits as strtod), on x86-64 a long double path for 16-19 digit
 * mantissas (%.17g output), strtod for everything else (20+ digits, large
 * exponents, hex, nan, inf). Never fails loudly: a bad token returns NULL
 * and the caller writes the message. */
#include "io_internal.h"

#include <errno.h>
#include <float.h>
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

/* x86's 80-bit long double: 64-bit significand stored first, little-endian. */
#if defined(__x86_64__) && LDBL_MANT_DIG == 64
#define SYLVA_X87_LONG_DOUBLE 1
static const long double pow10_exact_ld[28] = {
    1e0L,  1e1L,  1e2L,  1e3L,  1e4L,  1e5L,  1e6L,  1e7L,  1e8L,  1e9L,
    1e10L, 1e11L, 1e12L, 1e13L, 1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L,
    1e20L, 1e21L, 1e22L, 1e23L, 1e24L, 1e25L, 1e26L, 1e27L};
#else
#define SYLVA_X87_LONG_DOUBLE 0
#endif

static const char *parse_double_slow(const char *s, double *out, int *erange)
{
    char *end;
    errno = 0;
    double d = strtod(s, &end);
    if (end == s || !sylva__is_delim(*end)) return NULL;
    if (errno == ERANGE) *erange = 1;
    *out = d;
    return end;
}

const char *sylva__parse_double(const char *s, double *out, int *erange)
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
#if SYLVA_X87_LONG_DOUBLE
    /* 16 to 19 digits (what %.17g writes): m and 10^|e| (e <= 27) are exact
     * in the 64-bit significand, so one long double operation rounds once;
     * rounding that to double is then right unless the long double landed
     * exactly on a halfway point between two doubles (its 11 low bits are
     * 10000000000): those rare cases go to strtod. */
    if (e10 >= -27 && e10 <= 27) {
        long double y = e10 < 0 ? (long double)m / pow10_exact_ld[-e10] : (long double)m * pow10_exact_ld[e10];
        uint64_t sig;
        memcpy(&sig, &y, sizeof sig);
        if ((sig & 0x7FF) != 0x400) {
            double d = (double)y;
            *out = neg ? -d : d;
            return p;
        }
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
