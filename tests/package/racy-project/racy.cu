// Each thread writes its element of the tile and reads its neighbour's with no barrier in
// between: thread t + 1 may write tile[t + 1] while thread t reads it.
__global__ void shift_left(int *out) {
  __shared__ int tile[256];
  const unsigned t = threadIdx.x;
  tile[t] = static_cast<int>(t);
  out[blockIdx.x * 256 + t] = tile[(t + 1) % 256];
}
