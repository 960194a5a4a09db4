/* test_json.c — the JSON writer of the command and benchmarks (argv: DIR):
 * a document with nesting, escapes, integers beyond 2^53, doubles that need
 * 17 digits and non-finite numbers is read back by Python's json module
 * (tests/solver/check_json.py) and compared value by value; a snapshot taken
 * mid-document is valid JSON holding the rows so far. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "json.h"
#include "sylva.h"

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: test_json DIR CHECKER\n");
        return 2;
    }
    char full[1024], snap[1024], cmd[4096];
    snprintf(full, sizeof full, "%s/test_json_full.json", argv[1]);
    snprintf(snap, sizeof snap, "%s/test_json_snap.json", argv[1]);
    json_writer j;
    CHECK(json_open(&j, full, '{') == SYLVA_OK, "open");
    json_str(&j, "text", "quote \" backslash \\ tab \t newline \n bell \a");
    json_int(&j, "big", 9007199254740993LL);
    json_num(&j, "third", 1.0 / 3.0);
    json_num(&j, "tenth", 0.1);
    json_num(&j, "max", DBL_MAX);
    json_num(&j, "tiny", 4.9406564584124654e-324);
    json_num(&j, "nan", NAN);
    json_num(&j, "inf", INFINITY);
    json_bool(&j, "yes", 1);
    json_str(&j, "none", NULL);
    json_begin(&j, "rows", '[');
    for (int i = 0; i < 3; i++) {
        json_begin(&j, NULL, '{');
        json_int(&j, "i", i);
        json_num(&j, "x", i * 0.7);
        json_end(&j);
    }
    json_begin(&j, NULL, '[');
    json_end(&j); /* an empty array */
    json_end(&j);
    json_begin(&j, "deep", '{');
    json_begin(&j, "deeper", '{');
    json_num(&j, "pi", M_PI);
    /* left open: json_close closes it */
    CHECK(json_close(&j) == SYLVA_OK, "close");

    json_writer s;
    CHECK(json_open(&s, snap, '[') == SYLVA_OK, "open snapshot");
    json_begin(&s, NULL, '{');
    json_int(&s, "row", 0);
    json_end(&s);
    json_begin(&s, NULL, '{');
    json_int(&s, "row", 1);
    CHECK(json_snapshot(&s) == SYLVA_OK, "snapshot");
    json_discard(&s);

    snprintf(cmd, sizeof cmd, "python3 %s %s %s", argv[2], full, snap);
    CHECK(system(cmd) == 0, "%s failed", cmd);
    /* An unwritable path is the close's status. */
    CHECK(json_open(&j, "/nonexistent-dir/x.json", '{') == SYLVA_OK, "open");
    CHECK(json_close(&j) == SYLVA_ERR_IO, "writing into a missing directory did not fail");
    return test_exit("test_json");
}
