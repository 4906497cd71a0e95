// The book track: "Professional CUDA C Programming" (Cheng, Grossman, McKercher, 2014), chapter 3,
// "Avoiding Branch Divergence" and "Unrolling Loops" (seeds/002): reduceNeighbored ...
// reduceCompleteUnroll, with the book's names. They reduce IN PLACE IN GLOBAL MEMORY, as the book
// does: each block works on its slice of the array, idata = g_idata + blockIdx.x * blockDim.x * k.
// Only thread 0 of each block writes g_odata[blockIdx.x]; the host copies the partial sums back and
// adds them (there is no barrier across blocks).
//
// Each kernel is a template on the probe (tracing/probe.cuh), like the other tracks. The host never
// gives them the user's input: it passes a scratch copy (GlobalBuffer::Scratch), padded with zeros
// to whole blocks of 8 x 1024 elements, and `n` is that padded length. The timing build is the plain
// kernel; the tracing build records one block's global loads and stores and barriers.
//
// Corrections to the book's code (../DESIGN.md lists the seeds' bugs):
//   - no early `return` before __syncthreads() (the book's `if (idx >= n) return;`): with the padded
//     scratch copy every thread of the grid has data, so none needs to leave;
//   - the unrolled last warp synchronises with __syncwarp() between reading and writing, instead of
//     relying on `volatile` and lockstep warps (unsafe since Volta's independent thread scheduling);
//   - the unrolled loads keep the book's `if (idx + 7 * blockDim.x < n)`, which drops the tail of an
//     array that is not a whole number of 8-block tiles; the padding makes it always true;
//   - sums are kept as unsigned int (Acc<int>) so that int overflow wraps instead of being undefined.
#pragma once

#include "probe.cuh"

namespace rs {

// Barriers go through the probe, as in the other kernel files; #undef'd at the end of the file.
#define __syncthreads() probe.block_barrier(__LINE__)
#define __syncwarp() probe.warp_barrier(__LINE__)

// reduceNeighbored -- neighbored pairs: stride 1, 2, 4, ...; threads with tid % (2 * stride) == 0 add.
// Divergent: in every step the working threads are scattered across all warps.
template <class Probe>
__global__ void reduceNeighbored(const int* g_in, int* g_out, unsigned int n, Probe probe) {
  GlobalArray<int, Probe, GlobalBuffer::Scratch> g_idata(const_cast<int*>(g_in), probe);  // int *g_idata (scratch copy)
  GlobalArray<int, Probe> g_odata(g_out, probe);
  // set thread ID
  unsigned int tid = threadIdx.x;
  // convert global data pointer to the local pointer of this block
  auto idata = g_idata + blockIdx.x * blockDim.x;
  // in-place reduction in global memory
  for (int stride = 1; stride < blockDim.x; stride *= 2) {
    if ((tid % (2 * stride)) == 0) {
      idata[tid] += idata[tid + stride];
    }
    // synchronize within block
    __syncthreads();
  }
  // write result for this block to global mem
  if (tid == 0) g_odata[blockIdx.x] = idata[0];
}

// reduceNeighboredLess -- the same pairs, but thread tid works on index 2 * stride * tid, so the
// working threads are the first ones and whole warps go idle (no divergence until < 32 remain).
template <class Probe>
__global__ void reduceNeighboredLess(const int* g_in, int* g_out, unsigned int n, Probe probe) {
  GlobalArray<int, Probe, GlobalBuffer::Scratch> g_idata(const_cast<int*>(g_in), probe);  // int *g_idata (scratch copy)
  GlobalArray<int, Probe> g_odata(g_out, probe);
  unsigned int tid = threadIdx.x;
  auto idata = g_idata + blockIdx.x * blockDim.x;
  for (int stride = 1; stride < blockDim.x; stride *= 2) {
    // convert tid into local array index
    int index = 2 * stride * tid;
    if (index < blockDim.x) {
      idata[index] += idata[index + stride];
    }
    __syncthreads();
  }
  if (tid == 0) g_odata[blockIdx.x] = idata[0];
}

// reduceInterleaved -- interleaved pairs: stride blockDim.x / 2, then halving; threads tid < stride
// add element tid + stride, so each warp's loads and stores are contiguous (coalesced).
template <class Probe>
__global__ void reduceInterleaved(const int* g_in, int* g_out, unsigned int n, Probe probe) {
  GlobalArray<int, Probe, GlobalBuffer::Scratch> g_idata(const_cast<int*>(g_in), probe);  // int *g_idata (scratch copy)
  GlobalArray<int, Probe> g_odata(g_out, probe);
  unsigned int tid = threadIdx.x;
  auto idata = g_idata + blockIdx.x * blockDim.x;
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) {
      idata[tid] += idata[tid + stride];
    }
    __syncthreads();
  }
  if (tid == 0) g_odata[blockIdx.x] = idata[0];
}

// reduceUnrolling2 -- each block first adds its neighbour data block into its own: half the blocks.
template <class Probe>
__global__ void reduceUnrolling2(const int* g_in, int* g_out, unsigned int n, Probe probe) {
  GlobalArray<int, Probe, GlobalBuffer::Scratch> g_idata(const_cast<int*>(g_in), probe);  // int *g_idata (scratch copy)
  GlobalArray<int, Probe> g_odata(g_out, probe);
  unsigned int tid = threadIdx.x;
  unsigned int idx = blockIdx.x * blockDim.x * 2 + threadIdx.x;
  auto idata = g_idata + blockIdx.x * blockDim.x * 2;
  // unrolling 2 data blocks
  if (idx + blockDim.x < n) g_idata[idx] += g_idata[idx + blockDim.x];
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) {
      idata[tid] += idata[tid + stride];
    }
    __syncthreads();
  }
  if (tid == 0) g_odata[blockIdx.x] = idata[0];
}

// reduceUnrolling4 -- four data blocks per thread block: more independent loads in flight per thread.
template <class Probe>
__global__ void reduceUnrolling4(const int* g_in, int* g_out, unsigned int n, Probe probe) {
  GlobalArray<int, Probe, GlobalBuffer::Scratch> g_idata(const_cast<int*>(g_in), probe);  // int *g_idata (scratch copy)
  GlobalArray<int, Probe> g_odata(g_out, probe);
  unsigned int tid = threadIdx.x;
  unsigned int idx = blockIdx.x * blockDim.x * 4 + threadIdx.x;
  auto idata = g_idata + blockIdx.x * blockDim.x * 4;
  // unrolling 4
  if (idx + 3 * blockDim.x < n) {
    Acc<int> a1 = g_idata[idx];
    Acc<int> a2 = g_idata[idx + blockDim.x];
    Acc<int> a3 = g_idata[idx + 2 * blockDim.x];
    Acc<int> a4 = g_idata[idx + 3 * blockDim.x];
    g_idata[idx] = a1 + a2 + a3 + a4;
  }
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) {
      idata[tid] += idata[tid + stride];
    }
    __syncthreads();
  }
  if (tid == 0) g_odata[blockIdx.x] = idata[0];
}

// reduceUnrolling8 -- eight data blocks per thread block.
template <class Probe>
__global__ void reduceUnrolling8(const int* g_in, int* g_out, unsigned int n, Probe probe) {
  GlobalArray<int, Probe, GlobalBuffer::Scratch> g_idata(const_cast<int*>(g_in), probe);  // int *g_idata (scratch copy)
  GlobalArray<int, Probe> g_odata(g_out, probe);
  unsigned int tid = threadIdx.x;
  unsigned int idx = blockIdx.x * blockDim.x * 8 + threadIdx.x;
  auto idata = g_idata + blockIdx.x * blockDim.x * 8;
  // unrolling 8
  if (idx + 7 * blockDim.x < n) {
    Acc<int> a1 = g_idata[idx];
    Acc<int> a2 = g_idata[idx + blockDim.x];
    Acc<int> a3 = g_idata[idx + 2 * blockDim.x];
    Acc<int> a4 = g_idata[idx + 3 * blockDim.x];
    Acc<int> b1 = g_idata[idx + 4 * blockDim.x];
    Acc<int> b2 = g_idata[idx + 5 * blockDim.x];
    Acc<int> b3 = g_idata[idx + 6 * blockDim.x];
    Acc<int> b4 = g_idata[idx + 7 * blockDim.x];
    g_idata[idx] = a1 + a2 + a3 + a4 + b1 + b2 + b3 + b4;
  }
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) {
      idata[tid] += idata[tid + stride];
    }
    __syncthreads();
  }
  if (tid == 0) g_odata[blockIdx.x] = idata[0];
}

// The last warp, unrolled: 32 threads are one warp, so no __syncthreads() and no `if (tid < s)`.
// Each step reads, waits for the warp (__syncwarp), writes, and waits again (the book relies on
// `volatile` and lockstep warps instead). Needs blockDim.x >= 64: it starts at idata[tid + 32].
template <class Data, class Probe>
__device__ __forceinline__ void warpUnroll(Data& idata, unsigned int tid, Probe& probe) {
  Acc<int> v = idata[tid];
  v += idata[tid + 32]; __syncwarp(); idata[tid] = v; __syncwarp();
  v += idata[tid + 16]; __syncwarp(); idata[tid] = v; __syncwarp();
  v += idata[tid + 8]; __syncwarp(); idata[tid] = v; __syncwarp();
  v += idata[tid + 4]; __syncwarp(); idata[tid] = v; __syncwarp();
  v += idata[tid + 2]; __syncwarp(); idata[tid] = v; __syncwarp();
  v += idata[tid + 1]; __syncwarp(); idata[tid] = v; __syncwarp();
}

// reduceUnrollWarps8 -- unrolling 8, and the last warp unrolled.
template <class Probe>
__global__ void reduceUnrollWarps8(const int* g_in, int* g_out, unsigned int n, Probe probe) {
  GlobalArray<int, Probe, GlobalBuffer::Scratch> g_idata(const_cast<int*>(g_in), probe);  // int *g_idata (scratch copy)
  GlobalArray<int, Probe> g_odata(g_out, probe);
  unsigned int tid = threadIdx.x;
  unsigned int idx = blockIdx.x * blockDim.x * 8 + threadIdx.x;
  auto idata = g_idata + blockIdx.x * blockDim.x * 8;
  if (idx + 7 * blockDim.x < n) {
    Acc<int> a1 = g_idata[idx];
    Acc<int> a2 = g_idata[idx + blockDim.x];
    Acc<int> a3 = g_idata[idx + 2 * blockDim.x];
    Acc<int> a4 = g_idata[idx + 3 * blockDim.x];
    Acc<int> b1 = g_idata[idx + 4 * blockDim.x];
    Acc<int> b2 = g_idata[idx + 5 * blockDim.x];
    Acc<int> b3 = g_idata[idx + 6 * blockDim.x];
    Acc<int> b4 = g_idata[idx + 7 * blockDim.x];
    g_idata[idx] = a1 + a2 + a3 + a4 + b1 + b2 + b3 + b4;
  }
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 32; stride >>= 1) {
    if (tid < stride) {
      idata[tid] += idata[tid + stride];
    }
    __syncthreads();
  }
  // unrolling warp
  if (tid < 32) warpUnroll(idata, tid, probe);
  if (tid == 0) g_odata[blockIdx.x] = idata[0];
}

// reduceCompleteUnrollWarps8 -- the loop completely unrolled (blockDim.x at most 1024).
template <class Probe>
__global__ void reduceCompleteUnrollWarps8(const int* g_in, int* g_out, unsigned int n, Probe probe) {
  GlobalArray<int, Probe, GlobalBuffer::Scratch> g_idata(const_cast<int*>(g_in), probe);  // int *g_idata (scratch copy)
  GlobalArray<int, Probe> g_odata(g_out, probe);
  unsigned int tid = threadIdx.x;
  unsigned int idx = blockIdx.x * blockDim.x * 8 + threadIdx.x;
  auto idata = g_idata + blockIdx.x * blockDim.x * 8;
  if (idx + 7 * blockDim.x < n) {
    Acc<int> a1 = g_idata[idx];
    Acc<int> a2 = g_idata[idx + blockDim.x];
    Acc<int> a3 = g_idata[idx + 2 * blockDim.x];
    Acc<int> a4 = g_idata[idx + 3 * blockDim.x];
    Acc<int> b1 = g_idata[idx + 4 * blockDim.x];
    Acc<int> b2 = g_idata[idx + 5 * blockDim.x];
    Acc<int> b3 = g_idata[idx + 6 * blockDim.x];
    Acc<int> b4 = g_idata[idx + 7 * blockDim.x];
    g_idata[idx] = a1 + a2 + a3 + a4 + b1 + b2 + b3 + b4;
  }
  __syncthreads();
  // in-place reduction and complete unroll
  if (blockDim.x >= 1024 && tid < 512) idata[tid] += idata[tid + 512];
  __syncthreads();
  if (blockDim.x >= 512 && tid < 256) idata[tid] += idata[tid + 256];
  __syncthreads();
  if (blockDim.x >= 256 && tid < 128) idata[tid] += idata[tid + 128];
  __syncthreads();
  if (blockDim.x >= 128 && tid < 64) idata[tid] += idata[tid + 64];
  __syncthreads();
  if (tid < 32) warpUnroll(idata, tid, probe);
  if (tid == 0) g_odata[blockIdx.x] = idata[0];
}

// reduceCompleteUnroll -- the block size as a template parameter (iBlockSize): every
// `iBlockSize >= ...` is decided at compile time. The host dispatch is generated over block sizes,
// not the book's hand-written switch.
template <unsigned int iBlockSize, class Probe>
__global__ void reduceCompleteUnroll(const int* g_in, int* g_out, unsigned int n, Probe probe) {
  GlobalArray<int, Probe, GlobalBuffer::Scratch> g_idata(const_cast<int*>(g_in), probe);  // int *g_idata (scratch copy)
  GlobalArray<int, Probe> g_odata(g_out, probe);
  unsigned int tid = threadIdx.x;
  unsigned int idx = blockIdx.x * blockDim.x * 8 + threadIdx.x;
  auto idata = g_idata + blockIdx.x * blockDim.x * 8;
  if (idx + 7 * blockDim.x < n) {
    Acc<int> a1 = g_idata[idx];
    Acc<int> a2 = g_idata[idx + blockDim.x];
    Acc<int> a3 = g_idata[idx + 2 * blockDim.x];
    Acc<int> a4 = g_idata[idx + 3 * blockDim.x];
    Acc<int> b1 = g_idata[idx + 4 * blockDim.x];
    Acc<int> b2 = g_idata[idx + 5 * blockDim.x];
    Acc<int> b3 = g_idata[idx + 6 * blockDim.x];
    Acc<int> b4 = g_idata[idx + 7 * blockDim.x];
    g_idata[idx] = a1 + a2 + a3 + a4 + b1 + b2 + b3 + b4;
  }
  __syncthreads();
  if (iBlockSize >= 1024 && tid < 512) idata[tid] += idata[tid + 512];
  __syncthreads();
  if (iBlockSize >= 512 && tid < 256) idata[tid] += idata[tid + 256];
  __syncthreads();
  if (iBlockSize >= 256 && tid < 128) idata[tid] += idata[tid + 128];
  __syncthreads();
  if (iBlockSize >= 128 && tid < 64) idata[tid] += idata[tid + 64];
  __syncthreads();
  if (tid < 32) warpUnroll(idata, tid, probe);
  if (tid == 0) g_odata[blockIdx.x] = idata[0];
}

#undef __syncthreads
#undef __syncwarp

// Bindings for the host dispatch (kernels/dispatch.cuh): the track's kernels, in order.
RS_TRACK_KERNELS(book, RS_KERNEL_INT(reduceNeighbored), RS_KERNEL_INT(reduceNeighboredLess),
                 RS_KERNEL_INT(reduceInterleaved), RS_KERNEL_INT(reduceUnrolling2), RS_KERNEL_INT(reduceUnrolling4),
                 RS_KERNEL_INT(reduceUnrolling8), RS_KERNEL_INT(reduceUnrollWarps8),
                 RS_KERNEL_INT(reduceCompleteUnrollWarps8), RS_KERNEL_INT_BS(reduceCompleteUnroll))

}  // namespace rs
