/* json.c — a tiny JSON object writer for --json (flat keys, one level of
 * nesting, strings escaped, non-finite numbers written as null). The text
 * is built in memory and written by sylva_write_file on close, so a file is
 * either complete or not there (or left as it was); a failure to write it is
 * the close's status. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_json_open(cli_json *j, const char *path)
{
    j->path = path;
    j->text = NULL;
    j->len = 0;
    j->first = 1;
    j->f = open_memstream(&j->text, &j->len);
    if (!j->f) return cli_error(SYLVA_ERR_NO_MEMORY, "%s: out of memory", path);
    fputc('{', j->f);
    return SYLVA_OK;
}

static void key(cli_json *j, const char *k)
{
    fprintf(j->f, "%s\n  \"%s\": ", j->first ? "" : ",", k);
    j->first = 0;
}

void cli_json_str(cli_json *j, const char *k, const char *v)
{
    key(j, k);
    fputc('"', j->f);
    for (const char *p = v; *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(j->f, "\\%c", *p);
        else if ((unsigned char)*p < 0x20) fprintf(j->f, "\\u%04x", *p);
        else fputc(*p, j->f);
    }
    fputc('"', j->f);
}

void cli_json_int(cli_json *j, const char *k, long long v)
{
    key(j, k);
    fprintf(j->f, "%lld", v);
}

void cli_json_num(cli_json *j, const char *k, double v)
{
    key(j, k);
    if (isfinite(v)) fprintf(j->f, "%.6g", v);
    else fputs("null", j->f);
}

void cli_json_begin(cli_json *j, const char *k)
{
    key(j, k);
    fputc('{', j->f);
    j->first = 1;
}

void cli_json_end(cli_json *j)
{
    fputs("}", j->f);
    j->first = 0;
}

int cli_json_close(cli_json *j)
{
    fputs("\n}\n", j->f);
    int bad = ferror(j->f);
    int status = fclose(j->f) != 0 || bad
                     ? cli_error(SYLVA_ERR_NO_MEMORY, "%s: out of memory", j->path)
                     : sylva_write_file(j->path, j->text, j->len);
    free(j->text);
    j->f = NULL;
    j->text = NULL;
    return status;
}
