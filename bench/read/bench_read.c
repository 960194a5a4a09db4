/* bench_read.c — Matrix Market reading speed: sylva_read_matrix_market vs
 * CHOLMOD's cholmod_l_read_sparse on the same file, page cache warm (the file
 * is read once before timing), median of 3 runs each.
 *   bench-read [FILE.mtx] [--gen lap3d27 --size N] [--json OUT.json]
 * Without FILE a lap3d27 N³ file (N = 80: ~115 MB) is generated into a
 * temporary directory and removed afterwards. Prints a table; with --json
 * writes {"file","bytes","sylva_seconds","cholmod_seconds","ratio"}
 * (ratio = cholmod / sylva, wall-clock medians) plus CPU seconds (all
 * threads), the CPU count and the load average. Exit 1 when a reader fails. */
#define _POSIX_C_SOURCE 200809L
#include <cholmod.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "json.h"
#include "sylva.h"
#include "sylva_gen.h"

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double median3(double *t)
{
    double a = t[0], b = t[1], c = t[2];
    if (a > b) { double s = a; a = b; b = s; }
    if (b > c) b = c;
    return a > b ? a : b;
}

static int warm(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    static char buf[1 << 20];
    while (fread(buf, 1, sizeof buf, f) > 0) {}
    fclose(f);
    return 0;
}

int main(int argc, char **argv)
{
    const char *file = NULL, *json = NULL;
    long size = 80;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0 && i + 1 < argc) json = argv[++i];
        else if (strcmp(argv[i], "--size") == 0 && i + 1 < argc) size = atol(argv[++i]);
        else if (argv[i][0] != '-') file = argv[i];
        else {
            fprintf(stderr, "usage: bench-read [FILE.mtx] [--size N] [--json OUT.json]\n");
            return 2;
        }
    }
    char dir[] = "/tmp/bench-read-XXXXXX", gen_path[64] = "";
    if (!file) {
        if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
        snprintf(gen_path, sizeof gen_path, "%s/lap3d27_%ld.mtx", dir, size);
        sylva_matrix *G = NULL;
        int st = sylva_gen_laplacian(3, 27, size, size, size, &G);
        if (st == SYLVA_OK) st = sylva_gen_write_mtx(gen_path, G);
        sylva_matrix_free(G);
        if (st != SYLVA_OK) { fprintf(stderr, "generate: %s\n", sylva_last_error()); return 1; }
        file = gen_path;
    }
    struct stat sb;
    if (stat(file, &sb) != 0 || warm(file) != 0) { perror(file); return 1; }

    double ts[3], tc[3], cs[3], cc[3];
    int64_t n = 0, nnz = 0;
    for (int r = 0; r < 3; r++) {
        sylva_matrix *A = NULL;
        double t0 = sylva_wtime(), c0 = cpu_now();
        int st = sylva_read_matrix_market(file, &A);
        ts[r] = sylva_wtime() - t0;
        cs[r] = cpu_now() - c0;
        if (st != SYLVA_OK) { fprintf(stderr, "sylva: %s\n", sylva_last_error()); return 1; }
        n = A->n;
        nnz = A->nnz;
        sylva_matrix_free(A);
    }
    cholmod_common cm;
    cholmod_l_start(&cm);
    size_t cnnz = 0;
    for (int r = 0; r < 3; r++) {
        FILE *f = fopen(file, "r");
        if (!f) { perror(file); return 1; }
        double t0 = sylva_wtime(), c0 = cpu_now();
        cholmod_sparse *S = cholmod_l_read_sparse(f, &cm);
        tc[r] = sylva_wtime() - t0;
        cc[r] = cpu_now() - c0;
        fclose(f);
        if (!S) { fprintf(stderr, "cholmod_l_read_sparse failed (status %d)\n", cm.status); return 1; }
        cnnz = cholmod_l_nnz(S, &cm);
        cholmod_l_free_sparse(&S, &cm);
    }
    cholmod_l_finish(&cm);
    double s = median3(ts), c = median3(tc);
    printf("file     %s\nbytes    %lld (%.1f MB)\nn        %lld\nnnz      %lld (sylva lower), %zu (cholmod)\n",
           file, (long long)sb.st_size, (double)sb.st_size / 1e6, (long long)n, (long long)nnz, cnnz);
    printf("%-28s %10s %10s %10s  %s\n", "reader", "run1 s", "run2 s", "run3 s", "median s");
    printf("%-28s %10.3f %10.3f %10.3f  %.3f (%.0f MB/s)\n", "sylva_read_matrix_market", ts[0], ts[1],
           ts[2], s, (double)sb.st_size / 1e6 / s);
    printf("%-28s %10.3f %10.3f %10.3f  %.3f (%.0f MB/s)\n", "cholmod_l_read_sparse", tc[0], tc[1],
           tc[2], c, (double)sb.st_size / 1e6 / c);
    printf("ratio    %.2fx (cholmod / sylva, wall)\n", c / s);
    printf("cpu      sylva %.3f s (all threads), cholmod %.3f s: %.2fx (medians)\n", median3(cs), median3(cc),
           median3(cc) / median3(cs));
    double load[1] = {0};
    FILE *la = fopen("/proc/loadavg", "r");
    if (la) {
        if (fscanf(la, "%lf", &load[0]) != 1) load[0] = 0;
        fclose(la);
    }
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    printf("machine  %ld CPUs, load average %.2f (other work slows the threaded reader most)\n", ncpu, load[0]);
    if (json) {
        json_writer j;
        int st = json_open(&j, json, '{');
        if (!st) {
            json_str(&j, "file", file);
            json_int(&j, "bytes", (long long)sb.st_size);
            json_num(&j, "sylva_seconds", s);
            json_num(&j, "cholmod_seconds", c);
            json_num(&j, "ratio", c / s);
            json_num(&j, "sylva_cpu_seconds", median3(cs));
            json_num(&j, "cholmod_cpu_seconds", median3(cc));
            json_int(&j, "cpus", ncpu);
            json_num(&j, "load_average", load[0]);
            st = json_close(&j);
        }
        if (st) {
            fprintf(stderr, "bench-read: %s: %s\n", json, sylva_last_error());
            return 1;
        }
    }
    if (gen_path[0]) {
        unlink(gen_path);
        rmdir(dir);
    }
    return 0;
}
