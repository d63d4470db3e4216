// kverify stub: see cublas_api.h
#pragma once
#include <cublas_api.h>
