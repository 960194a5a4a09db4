/* json.c — the JSON writer (contract in json.h). Pretty-printed: one member
 * per line, two spaces per level. */
#include "json.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sylva.h"

int json_open(json_writer *j, const char *path, char root)
{
    memset(j, 0, sizeof *j);
    j->path = path;
    j->f = open_memstream(&j->text, &j->len);
    if (!j->f) return SYLVA_ERR_NO_MEMORY;
    fputc(root, j->f);
    j->first[0] = 1;
    j->close[0] = root == '[' ? ']' : '}';
    return SYLVA_OK;
}

/* Bytes of the valid UTF-8 sequence at p (2 to 4), or 0 (RFC 3629: no
 * overlong form, no surrogate, nothing above U+10FFFF). */
static int utf8_length(const unsigned char *p)
{
    int len = p[0] >= 0xc2 && p[0] <= 0xdf ? 2 : p[0] >= 0xe0 && p[0] <= 0xef ? 3 : p[0] >= 0xf0 && p[0] <= 0xf4 ? 4 : 0;
    unsigned lo = 0x80, hi = 0xbf; /* the second byte's range */
    if (p[0] == 0xe0) lo = 0xa0;
    if (p[0] == 0xed) hi = 0x9f;
    if (p[0] == 0xf0) lo = 0x90;
    if (p[0] == 0xf4) hi = 0x8f;
    for (int i = 1; i < len; i++)
        if (p[i] < (i == 1 ? lo : 0x80) || p[i] > (i == 1 ? hi : 0xbf)) return 0;
    return len;
}

/* A JSON string. A byte that is not part of valid UTF-8 (a file name in
 * another encoding) is written as \u00XX, its Latin-1 reading, so the
 * document stays valid JSON. */
static void put_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(f, "\\%c", *p);
        else if (*p == '\n') fputs("\\n", f);
        else if (*p == '\t') fputs("\\t", f);
        else if (*p < 0x20 || *p == 0x7f) fprintf(f, "\\u%04x", *p);
        else if (*p < 0x80) fputc(*p, f);
        else {
            int len = utf8_length(p);
            if (len) {
                fwrite(p, 1, (size_t)len, f);
                p += len - 1;
            } else {
                fprintf(f, "\\u%04x", *p);
            }
        }
    }
    fputc('"', f);
}

/* A new member: the separator, the indentation and "key": when in an object. */
static void member(json_writer *j, const char *key)
{
    fprintf(j->f, "%s\n%*s", j->first[j->depth] ? "" : ",", 2 * (j->depth + 1), "");
    j->first[j->depth] = 0;
    if (key) {
        put_string(j->f, key);
        fputs(": ", j->f);
    }
}

void json_str(json_writer *j, const char *key, const char *value)
{
    member(j, key);
    if (value) put_string(j->f, value);
    else fputs("null", j->f);
}

void json_int(json_writer *j, const char *key, long long value)
{
    member(j, key);
    fprintf(j->f, "%lld", value);
}

void json_format_double(char *buf, size_t size, double value)
{
    for (int digits = 15; digits <= 17; digits++) {
        snprintf(buf, size, "%.*g", digits, value);
        if (strtod(buf, NULL) == value) return;
    }
}

void json_num(json_writer *j, const char *key, double value)
{
    member(j, key);
    if (!isfinite(value)) {
        fputs("null", j->f);
        return;
    }
    char buf[40];
    json_format_double(buf, sizeof buf, value);
    fputs(buf, j->f);
}

void json_bool(json_writer *j, const char *key, int value)
{
    member(j, key);
    fputs(value ? "true" : "false", j->f);
}

void json_begin(json_writer *j, const char *key, char kind)
{
    member(j, key);
    fputc(kind, j->f);
    assert(j->depth + 1 < JSON_MAX_DEPTH); /* deeper nesting is a caller's bug */
    j->depth++;
    j->first[j->depth] = 1;
    j->close[j->depth] = kind == '[' ? ']' : '}';
}

void json_end(json_writer *j)
{
    if (j->depth == 0) return;
    if (!j->first[j->depth]) fprintf(j->f, "\n%*s", 2 * j->depth, "");
    fputc(j->close[j->depth], j->f);
    j->depth--;
}

int json_close(json_writer *j)
{
    while (j->depth > 0) json_end(j);
    fprintf(j->f, "\n%c\n", j->close[0]);
    int bad = ferror(j->f);
    int status = fclose(j->f) != 0 || bad ? SYLVA_ERR_NO_MEMORY
                                          : sylva_write_file(j->path, j->text, j->len);
    free(j->text);
    j->f = NULL;
    j->text = NULL;
    return status;
}

int json_snapshot(json_writer *j)
{
    if (fflush(j->f) != 0 || ferror(j->f)) return SYLVA_ERR_NO_MEMORY;
    size_t cap = j->len + 4 * JSON_MAX_DEPTH + 4;
    char *doc = malloc(cap);
    if (!doc) return SYLVA_ERR_NO_MEMORY;
    memcpy(doc, j->text, j->len);
    size_t len = j->len;
    for (int d = j->depth; d >= 0; d--) {
        doc[len++] = '\n';
        doc[len++] = j->close[d];
    }
    doc[len++] = '\n';
    int status = sylva_write_file(j->path, doc, len);
    free(doc);
    return status;
}

void json_discard(json_writer *j)
{
    if (j->f) fclose(j->f);
    free(j->text);
    j->f = NULL;
    j->text = NULL;
}
