/* replay_main.c — a main() for the fuzz targets in ordinary builds (gcc,
 * the Asan build of CI): every file named on the command line, or found in
 * a directory named there, is given to LLVMFuzzerTestOneInput once. The
 * corpus under tests/fuzz/corpus (seeds, and the inputs of every defect
 * fixed) thereby runs in ctest without clang; a FUZZ_ASSERT aborts. */
#include <dirent.h>
#include <sys/stat.h>

#include "fuzz_util.h"

__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return 1;
    }
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (cap - len < 4096) {
            cap = cap ? 2 * cap : 8192;
            buf = realloc(buf, cap);
            if (!buf) abort();
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        if (got == 0) break;
        len += got;
    }
    fclose(f);
    /* An exact-size copy, so ASan sees a read past the input. */
    uint8_t *exact = malloc(len ? len : 1);
    if (len) memcpy(exact, buf, len);
    free(buf);
    LLVMFuzzerTestOneInput(exact, len);
    free(exact);
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    LLVMFuzzerInitialize(&argc, &argv);
    int files = 0, bad = 0;
    for (int a = 1; a < argc; a++) {
        struct stat st;
        if (stat(argv[a], &st) != 0) {
            fprintf(stderr, "replay: %s: no such file\n", argv[a]);
            return 2;
        }
        if (!S_ISDIR(st.st_mode)) {
            bad += run_file(argv[a]);
            files++;
            continue;
        }
        DIR *d = opendir(argv[a]);
        char **names = NULL;
        size_t count = 0;
        for (struct dirent *e; d && (e = readdir(d));) {
            if (e->d_name[0] == '.') continue;
            names = realloc(names, (count + 1) * sizeof *names);
            size_t len = strlen(argv[a]) + strlen(e->d_name) + 2;
            names[count] = malloc(len);
            snprintf(names[count++], len, "%s/%s", argv[a], e->d_name);
        }
        if (d) closedir(d);
        qsort(names, count, sizeof *names, cmp_str);
        for (size_t k = 0; k < count; k++) {
            bad += run_file(names[k]);
            files++;
            free(names[k]);
        }
        free(names);
    }
    printf("replay: %d inputs, %d unreadable\n", files, bad);
    return bad ? 1 : (files ? 0 : 2);
}
