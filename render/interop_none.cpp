// Builds without CUDA: registration always fails with a reason, so the app uploads from the host.
#include "render/interop.hpp"

#include <utility>

namespace nbody::render {

bool interop_compiled() {
  return false;
}

InteropBuffer::InteropBuffer(InteropBuffer&& o) noexcept
    : resource_(std::exchange(o.resource_, nullptr)) {}
InteropBuffer& InteropBuffer::operator=(InteropBuffer&& o) noexcept {
  resource_ = std::exchange(o.resource_, nullptr);
  return *this;
}
bool gl_on_cuda_device(std::string& why) {
  why = "this build has no CUDA";
  return false;
}

bool InteropBuffer::register_buffer(GLuint, std::string& error) {
  error = "this build has no CUDA";
  return false;
}
void InteropBuffer::reset() noexcept {
  resource_ = nullptr;
}

InteropMapping::InteropMapping(std::initializer_list<const InteropBuffer*>) {
  throw GlError("CUDA-GL interop is not available in this build");
}
InteropMapping::~InteropMapping() = default;

DeviceStaging::DeviceStaging(DeviceStaging&& o) noexcept
    : ptr_(std::exchange(o.ptr_, nullptr)), bytes_(std::exchange(o.bytes_, 0)) {}
DeviceStaging& DeviceStaging::operator=(DeviceStaging&& o) noexcept {
  ptr_ = std::exchange(o.ptr_, nullptr);
  bytes_ = std::exchange(o.bytes_, 0);
  return *this;
}
void DeviceStaging::allocate(std::size_t) {
  throw GlError("device staging needs CUDA; this build has no CUDA");
}
void DeviceStaging::reset() noexcept {
  ptr_ = nullptr;
  bytes_ = 0;
}
void copy_device(void*, const void*, std::size_t) {
  throw GlError("device copies need CUDA; this build has no CUDA");
}

}  // namespace nbody::render
