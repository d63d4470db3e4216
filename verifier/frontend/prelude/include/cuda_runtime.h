// kverify stub for <cuda_runtime.h>: device declarations come from kverify's prelude.
#pragma once
#include <cuda_runtime_api.h>
