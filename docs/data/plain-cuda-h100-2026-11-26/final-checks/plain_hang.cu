// A plain kernel that never finishes: s starts at 0 and doubling keeps it 0.
RS_LAUNCH_SHAPE(1, Relaunch, 32);
template <class T>
__global__ void user_kernel(const T* in, T* out, unsigned n) {
  volatile unsigned s = 0;
  while (s < blockDim.x) s = s * 2;
  if (threadIdx.x == 0 && blockIdx.x * blockDim.x < n) out[blockIdx.x] = in[blockIdx.x * blockDim.x];
}
