#include "app/window/egl_context.hpp"

#include <vector>

#include "render/gl_check.hpp"

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include "sim/core/error.hpp"

namespace nbody::app {
namespace {

// tries to make a 4.5 core context on an initialised display
bool make_context(EGLDisplay dpy, bool debug, EGLContext& ctx, EGLSurface& surf, std::string& why) {
  if (!eglBindAPI(EGL_OPENGL_API)) {
    why = "eglBindAPI(EGL_OPENGL_API) failed";
    return false;
  }
  const EGLint with_pbuffer[] = {EGL_SURFACE_TYPE,
                                 EGL_PBUFFER_BIT,
                                 EGL_RENDERABLE_TYPE,
                                 EGL_OPENGL_BIT,
                                 EGL_RED_SIZE,
                                 8,
                                 EGL_GREEN_SIZE,
                                 8,
                                 EGL_BLUE_SIZE,
                                 8,
                                 EGL_DEPTH_SIZE,
                                 24,
                                 EGL_NONE};
  const EGLint any_surface[] = {EGL_SURFACE_TYPE, 0, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
  EGLConfig cfg = nullptr;
  EGLint count = 0;
  bool pbuffer = true;
  if (!eglChooseConfig(dpy, with_pbuffer, &cfg, 1, &count) || count == 0) {
    pbuffer = false;
    if (!eglChooseConfig(dpy, any_surface, &cfg, 1, &count) || count == 0) {
      why = "no EGL config with OpenGL";
      return false;
    }
  }
  // a debug context reports every error and warning through KHR_debug (EGL 1.5 attribute)
  EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION,
                      4,
                      EGL_CONTEXT_MINOR_VERSION,
                      5,
                      EGL_CONTEXT_OPENGL_PROFILE_MASK,
                      EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                      debug ? EGL_CONTEXT_OPENGL_DEBUG : EGL_NONE,
                      EGL_TRUE,
                      EGL_NONE};
  ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, attribs);
  if (ctx == EGL_NO_CONTEXT && debug) {
    // EGL 1.4 without the attribute: an ordinary context (KHR_debug still reports errors)
    attribs[6] = EGL_NONE;
    ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, attribs);
  }
  if (ctx == EGL_NO_CONTEXT) {
    why =
        "eglCreateContext(OpenGL 4.5 core) failed (error 0x" + std::to_string(eglGetError()) + ")";
    return false;
  }
  // surfaceless when the display allows it, else a 1x1 pbuffer (rendering goes to an FBO)
  surf = EGL_NO_SURFACE;
  if (!eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
    if (pbuffer) {
      const EGLint pb[] = {EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE};
      surf = eglCreatePbufferSurface(dpy, cfg, pb);
    }
    if (surf == EGL_NO_SURFACE || !eglMakeCurrent(dpy, surf, surf, ctx)) {
      eglDestroyContext(dpy, ctx);
      ctx = EGL_NO_CONTEXT;
      why = "eglMakeCurrent failed";
      return false;
    }
  }
  return true;
}

}  // namespace

EglContext::EglContext(bool debug, int cuda_device) {
  std::string tried;
  auto query_devices =
      reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(eglGetProcAddress("eglQueryDevicesEXT"));
  auto platform_display = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(
      eglGetProcAddress("eglGetPlatformDisplayEXT"));
  auto query_device_string = reinterpret_cast<PFNEGLQUERYDEVICESTRINGEXTPROC>(
      eglGetProcAddress("eglQueryDeviceStringEXT"));

  // candidate displays: every EGL device, then Mesa surfaceless, then the default display
  struct Candidate {
    EGLDisplay dpy;
    std::string name;
  };
  auto query_device_attrib = reinterpret_cast<PFNEGLQUERYDEVICEATTRIBEXTPROC>(
      eglGetProcAddress("eglQueryDeviceAttribEXT"));
  std::vector<Candidate> candidates;
  if (query_devices && platform_display) {
    EGLDeviceEXT devices[16];
    EGLint n = 0;
    if (query_devices(16, devices, &n)) {
      // the EGL device that is the simulation's CUDA device goes first: EGL and CUDA number
      // the GPUs of a host independently, and interop across two GPUs is slow or undefined
      std::vector<Candidate> others;
      for (EGLint i = 0; i < n; ++i) {
        std::string name = "EGL device " + std::to_string(i);
        EGLAttrib cuda = -1;
        if (query_device_string) {
          const char* ext = query_device_string(devices[i], EGL_EXTENSIONS);
          if (ext && std::string(ext).find("EGL_NV_device_cuda") != std::string::npos) {
            if (!query_device_attrib || !query_device_attrib(devices[i], EGL_CUDA_DEVICE_NV, &cuda))
              cuda = -1;
            name += cuda >= 0 ? " (NVIDIA, CUDA device " + std::to_string(cuda) + ")"
                              : std::string(" (NVIDIA)");
          }
        }
        EGLDisplay d = platform_display(EGL_PLATFORM_DEVICE_EXT, devices[i], nullptr);
        if (d == EGL_NO_DISPLAY) continue;
        if (cuda == cuda_device)
          candidates.push_back({d, name});
        else
          others.push_back({d, name});
      }
      candidates.insert(candidates.end(), others.begin(), others.end());
    }
    EGLDisplay s = platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
    if (s != EGL_NO_DISPLAY) candidates.push_back({s, "Mesa surfaceless"});
  }
  EGLDisplay def = eglGetDisplay(EGL_DEFAULT_DISPLAY);
  if (def != EGL_NO_DISPLAY) candidates.push_back({def, "default EGL display"});

  for (const Candidate& c : candidates) {
    EGLint major = 0, minor = 0;
    if (!eglInitialize(c.dpy, &major, &minor)) {
      tried += "\n  " + c.name + ": eglInitialize failed";
      continue;
    }
    EGLContext ctx = EGL_NO_CONTEXT;
    EGLSurface surf = EGL_NO_SURFACE;
    std::string why;
    if (!make_context(c.dpy, debug, ctx, surf, why)) {
      tried += "\n  " + c.name + ": " + why;
      eglTerminate(c.dpy);
      continue;
    }
    display_ = c.dpy;
    context_ = ctx;
    surface_ = surf;
    try {
      render::load_gl(reinterpret_cast<GLADloadfunc>(eglGetProcAddress));
    } catch (const std::exception& e) {
      tried += "\n  " + c.name + ": " + e.what();
      eglMakeCurrent(c.dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
      if (surf != EGL_NO_SURFACE) eglDestroySurface(c.dpy, surf);
      eglDestroyContext(c.dpy, ctx);
      eglTerminate(c.dpy);
      display_ = context_ = surface_ = nullptr;
      continue;
    }
    description_ = c.name + " / " + render::gl_description();
    return;
  }
  fail("no headless OpenGL 4.5 context through EGL; tried:", tried.empty() ? " nothing" : tried);
}

EglContext::~EglContext() {
  if (!display_) return;
  // reverse order: release, surface, context, display
  eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  if (surface_) eglDestroySurface(display_, surface_);
  if (context_) eglDestroyContext(display_, context_);
  eglTerminate(display_);
}

}  // namespace nbody::app
