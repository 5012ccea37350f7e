#pragma once
// CUDA-GL interop without CUDA headers: a GL buffer registered with CUDA (done when the buffer
// is (re)allocated) and a scoped mapping that gives the kernels device pointers for one frame.
// Never draw while mapped. In builds without CUDA every registration fails with a reason.

#include <cstddef>
#include <initializer_list>
#include <string>
#include <vector>

#include "render/gl_check.hpp"

namespace nbody::render {

/// True when this build has the CUDA interop code.
bool interop_compiled();

/// Whether the current GL context runs on the CUDA device the calling thread uses (the one the
/// simulation writes on). False, with the reason in `why`, when GL runs on another GPU (a
/// display on one card and CUDA on another, or an EGL device that is not CUDA's): interop
/// across GPUs is slow or undefined, so the caller copies through the host instead.
bool gl_on_cuda_device(std::string& why);

/// A GL buffer registered as a CUDA graphics resource. Non-copyable, noexcept move, empty state.
class InteropBuffer {
 public:
  InteropBuffer() noexcept = default;
  ~InteropBuffer() { reset(); }
  InteropBuffer(const InteropBuffer&) = delete;
  InteropBuffer& operator=(const InteropBuffer&) = delete;
  InteropBuffer(InteropBuffer&& o) noexcept;
  InteropBuffer& operator=(InteropBuffer&& o) noexcept;

  /// Registers `buffer`; on failure stays empty, returns false and puts CUDA's reason in `error`
  /// (e.g. "cudaErrorOperatingSystem (304)" when the display runs on another GPU).
  bool register_buffer(GLuint buffer, std::string& error);
  /// Unregisters (logs, never throws).
  void reset() noexcept;
  bool registered() const noexcept { return resource_ != nullptr; }
  void* resource() const noexcept { return resource_; }

 private:
  void* resource_ = nullptr;  // cudaGraphicsResource_t
};

/// Maps registered buffers for its lifetime (one map and one unmap call for all of them).
class InteropMapping {
 public:
  /// Maps; throws GlError with CUDA's reason when mapping fails.
  explicit InteropMapping(std::initializer_list<const InteropBuffer*> buffers);
  ~InteropMapping();
  InteropMapping(const InteropMapping&) = delete;
  InteropMapping& operator=(const InteropMapping&) = delete;

  /// Device pointer and size of the i-th buffer.
  void* pointer(std::size_t i) const { return pointers_.at(i); }
  std::size_t bytes(std::size_t i) const { return bytes_.at(i); }
  /// Milliseconds the map call took (it waits for GL to finish with the buffers).
  double map_ms() const { return map_ms_; }

 private:
  std::vector<void*> resources_, pointers_;
  std::vector<std::size_t> bytes_;
  double map_ms_ = 0;
};

/// Device memory that a simulation thread's kernels write while the UI thread draws, copied into
/// a mapped buffer when a step has finished (so the UI never waits for a step). CUDA builds
/// only. Non-copyable, noexcept move, empty state.
class DeviceStaging {
 public:
  DeviceStaging() noexcept = default;
  ~DeviceStaging() { reset(); }
  DeviceStaging(const DeviceStaging&) = delete;
  DeviceStaging& operator=(const DeviceStaging&) = delete;
  DeviceStaging(DeviceStaging&& o) noexcept;
  DeviceStaging& operator=(DeviceStaging&& o) noexcept;

  /// Allocates `bytes` of device memory (keeps the old block when it is as large); throws
  /// GlError with CUDA's reason (or "this build has no CUDA").
  void allocate(std::size_t bytes);
  /// Frees (logs, never throws).
  void reset() noexcept;
  void* get() const noexcept { return ptr_; }
  std::size_t bytes() const noexcept { return bytes_; }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

/// Copies `bytes` between device pointers (staging -> mapped buffer) and waits for the copy;
/// throws GlError with CUDA's reason.
void copy_device(void* dst, const void* src, std::size_t bytes);

}  // namespace nbody::render
