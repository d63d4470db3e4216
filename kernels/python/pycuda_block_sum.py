"""Per-block sums with PyCUDA: the kernel library's reduction (kernels/src/reduce.cu) as a
Python user writes it. kverify reads the kernel from the SourceModule string and the launch
(256-thread blocks, N // 256 blocks) from the call, and verifies it where it lives:

    build/verifier/kverify kernels/python/pycuda_block_sum.py
"""
import numpy as np

BLOCK = 256
N = 1 << 16

KERNEL = f"""
__global__ void block_sum(const float *in, float *partial, int n)
{{
    __shared__ float sdata[{BLOCK}];
    unsigned int tid = threadIdx.x;
    int i = blockIdx.x * {BLOCK} + threadIdx.x;
    sdata[tid] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned int s = {BLOCK} / 2; s > 0; s >>= 1) {{
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }}
    if (tid == 0)
        partial[blockIdx.x] = sdata[0];
}}
"""


def main():
    import pycuda.autoinit  # noqa: F401  (creates the CUDA context)
    import pycuda.driver as drv
    from pycuda.compiler import SourceModule

    mod = SourceModule(KERNEL)
    block_sum = mod.get_function("block_sum")
    data = np.random.rand(N).astype(np.float32)
    partial = np.zeros(N // BLOCK, dtype=np.float32)
    block_sum(drv.In(data), drv.Out(partial), np.int32(N),
              block=(BLOCK, 1, 1), grid=(N // BLOCK, 1))
    print("sum:", partial.sum(), "expected:", data.sum())


if __name__ == "__main__":
    main()
