// kverify stub for <stdio.h>: device printf (modelled as a call with no memory effect
// kverify checks) plus the host functions .cu files commonly use.
#pragma once
#ifdef __cplusplus
extern "C" {
#endif
typedef struct _IO_FILE FILE;
extern FILE *stdin, *stdout, *stderr;
__host__ __device__ int printf(const char *format, ...);
int fprintf(FILE *stream, const char *format, ...);
int sprintf(char *str, const char *format, ...);
int snprintf(char *str, __kv_size_t size, const char *format, ...);
int puts(const char *s);
int fflush(FILE *stream);
#ifdef __cplusplus
}
#endif
