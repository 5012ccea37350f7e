#pragma once
// A headless OpenGL 4.5 core context through EGL: the NVIDIA device platform
// (eglQueryDevicesEXT + eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT)) first, then Mesa's
// surfaceless platform and the default display. Made current on construction.

#include <string>

namespace nbody::app {

class EglContext {
 public:
  /// Creates the context and loads GL; throws nbody::Error saying what failed at each attempt.
  /// `debug`: a debug context (KHR_debug reports errors, undefined behaviour, performance).
  /// `cuda_device`: the EGL device that is this CUDA device (EGL_NV_device_cuda) is tried first.
  explicit EglContext(bool debug = false, int cuda_device = 0);
  ~EglContext();
  EglContext(const EglContext&) = delete;
  EglContext& operator=(const EglContext&) = delete;

  /// "EGL device 0 (NVIDIA, CUDA device 0) / NVIDIA H200/PCIe/SSE2 / OpenGL 4.5 ..."
  const std::string& description() const { return description_; }

 private:
  void* display_ = nullptr;  // EGLDisplay
  void* context_ = nullptr;  // EGLContext
  void* surface_ = nullptr;  // EGLSurface (1x1 pbuffer when surfaceless is not supported)
  std::string description_;
};

}  // namespace nbody::app
