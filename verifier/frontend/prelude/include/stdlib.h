// kverify stub for <stdlib.h> (host side only).
#pragma once
#ifdef __cplusplus
extern "C" {
#endif
void *malloc(__kv_size_t size);
void *calloc(__kv_size_t n, __kv_size_t size);
void free(void *ptr);
void exit(int status);
int rand(void);
void srand(unsigned seed);
int atoi(const char *s);
#ifdef __cplusplus
}
#endif
#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
#define RAND_MAX 2147483647
