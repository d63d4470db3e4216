// kverify stub: threadIdx, blockIdx, blockDim, gridDim, warpSize come from the prelude.
#pragma once
