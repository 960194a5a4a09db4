/* fuzz_parse_number.c — the readers' number parsers against the C library,
 * bit for bit: a token the reader accepts as a double must be what strtod
 * reads (same bits, same end, ERANGE alike) and the reader must accept every
 * token strtod reads up to a delimiter, save one starting with white space
 * (strtod skips it, newlines too; a token never starts there); integers
 * likewise against strtoll (the reader refuses INT64_MIN and values out of
 * range, which no index needs). The input is the token, cut at 80 bytes. */
#include "fuzz_util.h"
#include "io_internal.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 80) size = 80;
    char *s = fuzz_text(data, size);
    double a = 0;
    int er = 0;
    const char *e = sylva__parse_double(s, &a, &er);
    char *end;
    errno = 0;
    double b = strtod(s, &end);
    int b_erange = errno == ERANGE;
    int strtod_ok = end != s && sylva__is_delim(*end) && !isspace((unsigned char)s[0]);
    if (strtod_ok) {
        FUZZ_ASSERT(e == end, "'%s': reader stops at %td, strtod at %td", s, e ? e - s : -1,
                    end - s);
        FUZZ_ASSERT(!memcmp(&a, &b, sizeof a) || (isnan(a) && isnan(b)),
                    "'%s': %.17g vs strtod %.17g", s, a, b);
        FUZZ_ASSERT(er == b_erange, "'%s': ERANGE %d vs strtod %d", s, er, b_erange);
    } else {
        FUZZ_ASSERT(e == NULL, "'%s': reader accepts what strtod does not", s);
    }
    int64_t i = 0;
    const char *ei = sylva__parse_int64(s, &i);
    errno = 0;
    long long l = strtoll(s, &end, 10);
    int ll_ok = end != s && sylva__is_delim(*end) && errno != ERANGE && s[0] != ' ' &&
                s[0] != '\t' && s[0] != '\r' && s[0] != '\n' && s[0] != '\v' && s[0] != '\f' &&
                l != LLONG_MIN;
    if (ll_ok)
        FUZZ_ASSERT(ei == end && i == l, "'%s': int %lld vs strtoll %lld", s, (long long)i, l);
    else if (ei)
        FUZZ_ASSERT(end == ei && i == l, "'%s': reader accepts int %lld, strtoll does not", s,
                    (long long)i);
    free(s);
    return 0;
}
