/* json.h — the one JSON writer of the command and the benchmarks: objects
 * and arrays nested up to JSON_MAX_DEPTH − 1 levels, strings escaped, numbers
 * that read back to the same double (the shortest of %.15g/%.16g/%.17g that
 * round-trips), integers as integers, non-finite numbers as null. The text
 * is built in memory and written on json_close through sylva_write_file, so
 * a file is complete or not there (an existing one is left as it was).
 *
 *   json_writer j;
 *   json_open(&j, "out.json", '{');
 *   json_str(&j, "status", "ok");
 *   json_begin(&j, "seconds", '{'); json_num(&j, "read", 0.25); json_end(&j);
 *   json_begin(&j, "errors", '['); json_num(&j, NULL, 1e-16); json_end(&j);
 *   if (json_close(&j)) ... a status: the write failed
 *
 * Inside an array the key is NULL. Depends on libc and sylva_write_file only,
 * so the benchmarks link it too (library sylva_json). */
#ifndef SYLVA_CLI_JSON_H
#define SYLVA_CLI_JSON_H

#include <stdio.h>

enum { JSON_MAX_DEPTH = 16 };

typedef struct json_writer {
    FILE *f; /* a memory stream */
    char *text;
    size_t len;
    const char *path;
    int depth;
    int first[JSON_MAX_DEPTH]; /* nothing written yet at that depth */
    char close[JSON_MAX_DEPTH];
} json_writer;

/* Start a document whose root is an object ('{') or an array ('['). A status
 * (SYLVA_ERR_NO_MEMORY). */
int json_open(json_writer *j, const char *path, char root);
void json_str(json_writer *j, const char *key, const char *value); /* NULL → null */
void json_int(json_writer *j, const char *key, long long value);
void json_num(json_writer *j, const char *key, double value);
void json_bool(json_writer *j, const char *key, int value);
/* Open an object ('{') or array ('[') member; json_end closes the innermost. */
void json_begin(json_writer *j, const char *key, char kind);
void json_end(json_writer *j);
/* Close every open level, write the file: SYLVA_OK or the write's status. */
int json_close(json_writer *j);
/* Write the document as it stands, every open level closed, and keep
 * going (a long benchmark rewrites its file after each row, so a run cut
 * short keeps what it did). The write's status. */
int json_snapshot(json_writer *j);
/* Drop the document without writing anything. */
void json_discard(json_writer *j);

/* value as the shortest text that strtod reads back exactly (buf ≥ 32). */
void json_format_double(char *buf, size_t size, double value);

#endif
