// CUDA-GL interop (only in CUDA builds). glad's header comes first so cuda_gl_interop.h finds
// the GL types and does not pull in the system gl.h.
#include "render/interop.hpp"

#include <chrono>
#include <cstdio>
#include <utility>

#include <cuda_gl_interop.h>
#include <cuda_runtime.h>

namespace nbody::render {
namespace {

std::string cuda_reason(cudaError_t e) {
  return std::string(cudaGetErrorName(e)) + " (" + std::to_string(static_cast<int>(e)) +
         "): " + cudaGetErrorString(e);
}

}  // namespace

bool interop_compiled() {
  return true;
}

bool gl_on_cuda_device(std::string& why) {
  int device = 0;
  cudaError_t e = cudaGetDevice(&device);
  if (e != cudaSuccess) {
    cudaGetLastError();
    why = "no CUDA device: " + cuda_reason(e);
    return false;
  }
  unsigned int count = 0;
  int devices[16] = {};
  e = cudaGLGetDevices(&count, devices, 16, cudaGLDeviceListAll);
  if (e != cudaSuccess) {
    // the driver cannot tell: registration will say whether interop works
    cudaGetLastError();
    return true;
  }
  for (unsigned int i = 0; i < count; ++i)
    if (devices[i] == device) return true;
  why = "the GL context runs on ";
  if (count == 0) {
    why += "no CUDA device";
  } else {
    why += "CUDA device";
    for (unsigned int i = 0; i < count; ++i)
      why += (i ? ", " : " ") + std::to_string(devices[i]);
  }
  why += ", the simulation on CUDA device " + std::to_string(device);
  return false;
}

InteropBuffer::InteropBuffer(InteropBuffer&& o) noexcept
    : resource_(std::exchange(o.resource_, nullptr)) {}

InteropBuffer& InteropBuffer::operator=(InteropBuffer&& o) noexcept {
  if (this != &o) {
    reset();
    resource_ = std::exchange(o.resource_, nullptr);
  }
  return *this;
}

bool InteropBuffer::register_buffer(GLuint buffer, std::string& error) {
  reset();
  cudaGraphicsResource_t r = nullptr;
  cudaError_t e = cudaGraphicsGLRegisterBuffer(&r, buffer, cudaGraphicsRegisterFlagsNone);
  if (e != cudaSuccess) {
    cudaGetLastError();  // clear the sticky-free error so later calls start clean
    error = "cudaGraphicsGLRegisterBuffer failed: " + cuda_reason(e);
    return false;
  }
  resource_ = r;
  return true;
}

void InteropBuffer::reset() noexcept {
  if (!resource_) return;
  cudaError_t e = cudaGraphicsUnregisterResource(static_cast<cudaGraphicsResource_t>(resource_));
  if (e != cudaSuccess)
    std::fprintf(stderr, "cudaGraphicsUnregisterResource: %s\n", cuda_reason(e).c_str());
  resource_ = nullptr;
}

InteropMapping::InteropMapping(std::initializer_list<const InteropBuffer*> buffers) {
  for (const auto* b : buffers)
    if (b && b->registered()) resources_.push_back(b->resource());
  auto* res = reinterpret_cast<cudaGraphicsResource_t*>(resources_.data());
  auto t0 = std::chrono::steady_clock::now();
  cudaError_t e = cudaGraphicsMapResources(static_cast<int>(resources_.size()), res, 0);
  map_ms_ =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (e != cudaSuccess) {
    resources_.clear();
    throw GlError("cudaGraphicsMapResources failed: " + cuda_reason(e));
  }
  for (auto* r : resources_) {
    void* p = nullptr;
    std::size_t n = 0;
    e = cudaGraphicsResourceGetMappedPointer(&p, &n, static_cast<cudaGraphicsResource_t>(r));
    if (e != cudaSuccess) {
      cudaGraphicsUnmapResources(static_cast<int>(resources_.size()), res, 0);
      resources_.clear();
      throw GlError("cudaGraphicsResourceGetMappedPointer failed: " + cuda_reason(e));
    }
    pointers_.push_back(p);
    bytes_.push_back(n);
  }
}

InteropMapping::~InteropMapping() {
  if (resources_.empty()) return;
  auto* res = reinterpret_cast<cudaGraphicsResource_t*>(resources_.data());
  cudaError_t e = cudaGraphicsUnmapResources(static_cast<int>(resources_.size()), res, 0);
  if (e != cudaSuccess)
    std::fprintf(stderr, "cudaGraphicsUnmapResources: %s\n", cuda_reason(e).c_str());
}

DeviceStaging::DeviceStaging(DeviceStaging&& o) noexcept
    : ptr_(std::exchange(o.ptr_, nullptr)), bytes_(std::exchange(o.bytes_, 0)) {}

DeviceStaging& DeviceStaging::operator=(DeviceStaging&& o) noexcept {
  if (this != &o) {
    reset();
    ptr_ = std::exchange(o.ptr_, nullptr);
    bytes_ = std::exchange(o.bytes_, 0);
  }
  return *this;
}

void DeviceStaging::allocate(std::size_t bytes) {
  if (ptr_ && bytes_ >= bytes) return;
  reset();
  void* p = nullptr;
  cudaError_t e = cudaMalloc(&p, bytes > 0 ? bytes : 1);
  if (e != cudaSuccess) {
    cudaGetLastError();
    throw GlError("cudaMalloc of " + std::to_string(bytes) + " bytes failed: " + cuda_reason(e));
  }
  ptr_ = p;
  bytes_ = bytes;
}

void DeviceStaging::reset() noexcept {
  if (!ptr_) return;
  cudaError_t e = cudaFree(ptr_);
  if (e != cudaSuccess) std::fprintf(stderr, "cudaFree: %s\n", cuda_reason(e).c_str());
  ptr_ = nullptr;
  bytes_ = 0;
}

void copy_device(void* dst, const void* src, std::size_t bytes) {
  cudaError_t e = cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice);
  if (e != cudaSuccess) throw GlError("cudaMemcpy device to device failed: " + cuda_reason(e));
}

}  // namespace nbody::render
