// Test oracle, not product code: the lecture track's kernels (seeds/001) for float, written as the
// note writes them: raw pointers, `extern __shared__ float s_data[]`, the intrinsics called
// directly, no probe and no wrapper, with the same corrections as kernels/lecture_kernels.cuh
// (bounds checks, __syncwarp in warpSum). compare_sass.sh checks that the timing build
// (NullProbe, probe_lecture.cu) compiles to exactly this machine code.
namespace plain {

__global__ void sum_atomic(const float* pData, float* dev_sum, unsigned int num) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < num) {
    atomicAdd(dev_sum, pData[i]);
  }
}

__global__ void sum_shared(const float* pData, float* dev_sum, unsigned int num) {
  extern __shared__ float s_sum[];
  unsigned int tx = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + tx;
  if (tx == 0) s_sum[0] = 0;
  __syncthreads();
  if (i < num) {
    atomicAdd_block(&s_sum[0], pData[i]);
  }
  __syncthreads();
  if (tx == 0) {
    atomicAdd(dev_sum, s_sum[0]);
  }
}

__global__ void sum_reduce(const float* pData, float* dev_sum, unsigned int num) {
  extern __shared__ float s_data[];
  unsigned int tx = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + tx;
  s_data[tx] = (i < num) ? pData[i] : 0.0f;
  __syncthreads();
  for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
    if (tx % (2 * stride) == 0) {
      s_data[tx] += s_data[tx + stride];
    }
    __syncthreads();
  }
  if (tx == 0) {
    atomicAdd(dev_sum, s_data[0]);
  }
}

__global__ void sum_reversed(const float* pData, float* dev_sum, unsigned int num) {
  extern __shared__ float s_data[];
  unsigned int tx = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + tx;
  s_data[tx] = (i < num) ? pData[i] : 0.0f;
  __syncthreads();
  for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tx < stride) {
      s_data[tx] += s_data[tx + stride];
    }
    __syncthreads();
  }
  if (tx == 0) {
    atomicAdd(dev_sum, s_data[0]);
  }
}

__global__ void sum_add_first(const float* pData, float* dev_sum, unsigned int num) {
  extern __shared__ float s_data[];
  unsigned int tx = threadIdx.x;
  unsigned int i = blockIdx.x * (blockDim.x * 2) + tx;
  float sum = (i < num) ? pData[i] : 0.0f;
  if (i + blockDim.x < num) sum += pData[i + blockDim.x];
  s_data[tx] = sum;
  __syncthreads();
  for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tx < stride) {
      s_data[tx] += s_data[tx + stride];
    }
    __syncthreads();
  }
  if (tx == 0) {
    atomicAdd(dev_sum, s_data[0]);
  }
}

__device__ __forceinline__ void warpSum(float* s_data, unsigned int tx) {
  float v = s_data[tx];
  v += s_data[tx + 32]; __syncwarp(); s_data[tx] = v; __syncwarp();
  v += s_data[tx + 16]; __syncwarp(); s_data[tx] = v; __syncwarp();
  v += s_data[tx + 8]; __syncwarp(); s_data[tx] = v; __syncwarp();
  v += s_data[tx + 4]; __syncwarp(); s_data[tx] = v; __syncwarp();
  v += s_data[tx + 2]; __syncwarp(); s_data[tx] = v; __syncwarp();
  v += s_data[tx + 1]; __syncwarp(); s_data[tx] = v; __syncwarp();
}

__global__ void sum_last_warp(const float* pData, float* dev_sum, unsigned int num) {
  extern __shared__ float s_data[];
  unsigned int tx = threadIdx.x;
  unsigned int i = blockIdx.x * (blockDim.x * 2) + tx;
  float sum = (i < num) ? pData[i] : 0.0f;
  if (i + blockDim.x < num) sum += pData[i + blockDim.x];
  s_data[tx] = sum;
  __syncthreads();
  for (unsigned int stride = blockDim.x / 2; stride > 32; stride >>= 1) {
    if (tx < stride) {
      s_data[tx] += s_data[tx + stride];
    }
    __syncthreads();
  }
  if (tx < 32) warpSum(s_data, tx);
  if (tx == 0) {
    atomicAdd(dev_sum, s_data[0]);
  }
}

__global__ void sum_shuffle(const float* pData, float* dev_sum, unsigned int num) {
  extern __shared__ float s_data[];
  unsigned int tx = threadIdx.x;
  unsigned int i = blockIdx.x * (blockDim.x * 2) + tx;
  float sum = (i < num) ? pData[i] : 0.0f;
  if (i + blockDim.x < num) sum += pData[i + blockDim.x];
  s_data[tx] = sum;
  __syncthreads();
  for (unsigned int stride = blockDim.x / 2; stride > 32; stride >>= 1) {
    if (tx < stride) {
      s_data[tx] += s_data[tx + stride];
    }
    __syncthreads();
  }
  if (tx < 32) {
    sum = s_data[tx];
    sum += s_data[tx + 32];
    for (int offset = 16; offset > 0; offset /= 2) {
      sum += __shfl_xor_sync(0xffffffff, sum, offset);
    }
    if (tx == 0) {
      atomicAdd(dev_sum, sum);
    }
  }
}

__global__ void sum_two_step(const float* pData, float* partial, unsigned int num) {
  extern __shared__ float s_data[];
  unsigned int tx = threadIdx.x;
  float sum = 0;
  for (unsigned int i = blockIdx.x * (blockDim.x * 2) + tx; i < num; i += blockDim.x * 2 * gridDim.x) {
    sum += pData[i];
    if (i + blockDim.x < num) sum += pData[i + blockDim.x];
  }
  s_data[tx] = sum;
  __syncthreads();
  for (unsigned int stride = blockDim.x / 2; stride > 32; stride >>= 1) {
    if (tx < stride) {
      s_data[tx] += s_data[tx + stride];
    }
    __syncthreads();
  }
  if (tx < 32) warpSum(s_data, tx);
  if (tx == 0) {
    partial[blockIdx.x] = s_data[0];
  }
}

}  // namespace plain
