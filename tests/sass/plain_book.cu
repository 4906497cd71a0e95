// Test oracle, not product code: the book track's kernels (seeds/002) as the book writes them:
// raw `int*` pointers in place in global memory, `int *idata = g_idata + ...`, no probe and no
// wrapper, with the same corrections as kernels/book_kernels.cuh (no early return, __syncwarp in the
// last warp, unsigned sums). compare_sass.sh checks the timing build (NullProbe, probe_book.cu)
// against this machine code; bench/probe_overhead times both.
namespace plain {

__global__ void reduceNeighbored(int* g_idata, int* g_odata, unsigned int n) {
  unsigned int tid = threadIdx.x;
  int* idata = g_idata + blockIdx.x * blockDim.x;
  for (int stride = 1; stride < blockDim.x; stride *= 2) {
    if ((tid % (2 * stride)) == 0) {
      idata[tid] = (unsigned)idata[tid] + (unsigned)idata[tid + stride];
    }
    __syncthreads();
  }
  if (tid == 0) g_odata[blockIdx.x] = idata[0];
}

__global__ void reduceNeighboredLess(int* g_idata, int* g_odata, unsigned int n) {
  unsigned int tid = threadIdx.x;
  int* idata = g_idata + blockIdx.x * blockDim.x;
  for (int stride = 1; stride < blockDim.x; stride *= 2) {
    int index = 2 * stride * tid;
    if (index < blockDim.x) {
      idata[index] = (unsigned)idata[index] + (unsigned)idata[index + stride];
    }
    __syncthreads();
  }
  if (tid == 0) g_odata[blockIdx.x] = idata[0];
}

#define TREE_FROM(first)                                                      \
  for (int stride = first; stride > 0; stride >>= 1) {                       \
    if (tid < stride) idata[tid] = (unsigned)idata[tid] + (unsigned)idata[tid + stride]; \
    __syncthreads();                                                          \
  }

__global__ void reduceInterleaved(int* g_idata, int* g_odata, unsigned int n) {
  unsigned int tid = threadIdx.x;
  int* idata = g_idata + blockIdx.x * blockDim.x;
  TREE_FROM(blockDim.x / 2)
  if (tid == 0) g_odata[blockIdx.x] = idata[0];
}

__global__ void reduceUnrolling2(int* g_idata, int* g_odata, unsigned int n) {
  unsigned int tid = threadIdx.x;
  unsigned int idx = blockIdx.x * blockDim.x * 2 + threadIdx.x;
  int* idata = g_idata + blockIdx.x * blockDim.x * 2;
  if (idx + blockDim.x < n) g_idata[idx] = (unsigned)g_idata[idx] + (unsigned)g_idata[idx + blockDim.x];
  __syncthreads();
  TREE_FROM(blockDim.x / 2)
  if (tid == 0) g_odata[blockIdx.x] = idata[0];
}

__global__ void reduceUnrolling4(int* g_idata, int* g_odata, unsigned int n) {
  unsigned int tid = threadIdx.x;
  unsigned int idx = blockIdx.x * blockDim.x * 4 + threadIdx.x;
  int* idata = g_idata + blockIdx.x * blockDim.x * 4;
  if (idx + 3 * blockDim.x < n) {
    unsigned int a1 = g_idata[idx], a2 = g_idata[idx + blockDim.x], a3 = g_idata[idx + 2 * blockDim.x],
                 a4 = g_idata[idx + 3 * blockDim.x];
    g_idata[idx] = a1 + a2 + a3 + a4;
  }
  __syncthreads();
  TREE_FROM(blockDim.x / 2)
  if (tid == 0) g_odata[blockIdx.x] = idata[0];
}

#define LOAD8                                                                                            \
  if (idx + 7 * blockDim.x < n) {                                                                       \
    unsigned int a1 = g_idata[idx], a2 = g_idata[idx + blockDim.x], a3 = g_idata[idx + 2 * blockDim.x], \
                 a4 = g_idata[idx + 3 * blockDim.x], b1 = g_idata[idx + 4 * blockDim.x],                \
                 b2 = g_idata[idx + 5 * blockDim.x], b3 = g_idata[idx + 6 * blockDim.x],                \
                 b4 = g_idata[idx + 7 * blockDim.x];                                                    \
    g_idata[idx] = a1 + a2 + a3 + a4 + b1 + b2 + b3 + b4;                                               \
  }                                                                                                     \
  __syncthreads();

__global__ void reduceUnrolling8(int* g_idata, int* g_odata, unsigned int n) {
  unsigned int tid = threadIdx.x;
  unsigned int idx = blockIdx.x * blockDim.x * 8 + threadIdx.x;
  int* idata = g_idata + blockIdx.x * blockDim.x * 8;
  LOAD8
  TREE_FROM(blockDim.x / 2)
  if (tid == 0) g_odata[blockIdx.x] = idata[0];
}

__device__ __forceinline__ void warpUnroll(int* idata, unsigned int tid) {
  unsigned int v = idata[tid];
  v += idata[tid + 32]; __syncwarp(); idata[tid] = v; __syncwarp();
  v += idata[tid + 16]; __syncwarp(); idata[tid] = v; __syncwarp();
  v += idata[tid + 8]; __syncwarp(); idata[tid] = v; __syncwarp();
  v += idata[tid + 4]; __syncwarp(); idata[tid] = v; __syncwarp();
  v += idata[tid + 2]; __syncwarp(); idata[tid] = v; __syncwarp();
  v += idata[tid + 1]; __syncwarp(); idata[tid] = v; __syncwarp();
}

__global__ void reduceUnrollWarps8(int* g_idata, int* g_odata, unsigned int n) {
  unsigned int tid = threadIdx.x;
  unsigned int idx = blockIdx.x * blockDim.x * 8 + threadIdx.x;
  int* idata = g_idata + blockIdx.x * blockDim.x * 8;
  LOAD8
  for (int stride = blockDim.x / 2; stride > 32; stride >>= 1) {
    if (tid < stride) idata[tid] = (unsigned)idata[tid] + (unsigned)idata[tid + stride];
    __syncthreads();
  }
  if (tid < 32) warpUnroll(idata, tid);
  if (tid == 0) g_odata[blockIdx.x] = idata[0];
}

#define STEP(cond, k)                                                            \
  if (cond && tid < k) idata[tid] = (unsigned)idata[tid] + (unsigned)idata[tid + k]; \
  __syncthreads();

__global__ void reduceCompleteUnrollWarps8(int* g_idata, int* g_odata, unsigned int n) {
  unsigned int tid = threadIdx.x;
  unsigned int idx = blockIdx.x * blockDim.x * 8 + threadIdx.x;
  int* idata = g_idata + blockIdx.x * blockDim.x * 8;
  LOAD8
  STEP(blockDim.x >= 1024, 512) STEP(blockDim.x >= 512, 256) STEP(blockDim.x >= 256, 128) STEP(blockDim.x >= 128, 64)
  if (tid < 32) warpUnroll(idata, tid);
  if (tid == 0) g_odata[blockIdx.x] = idata[0];
}

template <unsigned int iBlockSize>
__global__ void reduceCompleteUnroll(int* g_idata, int* g_odata, unsigned int n) {
  unsigned int tid = threadIdx.x;
  unsigned int idx = blockIdx.x * blockDim.x * 8 + threadIdx.x;
  int* idata = g_idata + blockIdx.x * blockDim.x * 8;
  LOAD8
  STEP(iBlockSize >= 1024, 512) STEP(iBlockSize >= 512, 256) STEP(iBlockSize >= 256, 128) STEP(iBlockSize >= 128, 64)
  if (tid < 32) warpUnroll(idata, tid);
  if (tid == 0) g_odata[blockIdx.x] = idata[0];
}

template __global__ void reduceCompleteUnroll<512>(int*, int*, unsigned int);

}  // namespace plain
