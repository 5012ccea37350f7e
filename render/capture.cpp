#include "render/capture.hpp"

#include <algorithm>
#include <cstring>

#include <stb_image_write.h>

#include "render/gl_check.hpp"
#include "sim/io/io.hpp"

namespace nbody::render {

Image read_framebuffer(int width, int height) {
  Image img;
  img.width = width;
  img.height = height;
  auto row = static_cast<std::size_t>(width) * 4;
  img.rgba.resize(row * static_cast<std::size_t>(height));
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  NBODY_GL_CHECK(glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, img.rgba.data()));
  // GL rows start at the bottom
  std::vector<std::uint8_t> tmp(row);
  for (int y = 0; y < height / 2; ++y) {
    auto* a = img.rgba.data() + static_cast<std::size_t>(y) * row;
    auto* b = img.rgba.data() + static_cast<std::size_t>(height - 1 - y) * row;
    std::memcpy(tmp.data(), a, row);
    std::memcpy(a, b, row);
    std::memcpy(b, tmp.data(), row);
  }
  // opaque output: the blended alpha channel means nothing in a screenshot
  for (std::size_t i = 3; i < img.rgba.size(); i += 4)
    img.rgba[i] = 255;
  return img;
}

ImageLight measure_light(const Image& img, int threshold) {
  ImageLight l;
  double w = 0, sx = 0, sy = 0;
  for (int y = 0; y < img.height; ++y)
    for (int x = 0; x < img.width; ++x) {
      const std::uint8_t* p = &img.rgba[(static_cast<std::size_t>(y) * img.width + x) * 4];
      int v = std::max({p[0], p[1], p[2]});
      if (v <= threshold) continue;
      ++l.lit;
      sx += v * (x + 0.5);
      sy += v * (y + 0.5);
      w += v;
    }
  if (w > 0) l.x = sx / w, l.y = sy / w;
  return l;
}

void write_png(const std::string& path, const Image& img) {
  if (img.width <= 0 || img.height <= 0) throw GlError("cannot write an empty image to " + path);
  // encoded in memory, then written through the one safe writer (a FIFO or device named like
  // the file is refused; a full disk is an error naming the file, an old file stays whole)
  std::string png;
  auto append = [](void* ctx, void* data, int size) {
    static_cast<std::string*>(ctx)->append(static_cast<const char*>(data),
                                           static_cast<std::size_t>(size));
  };
  if (!stbi_write_png_to_func(append, &png, img.width, img.height, 4, img.rgba.data(),
                              img.width * 4))
    throw GlError(path + ": cannot encode the image as PNG");
  io::write_file(path, png);
}

}  // namespace nbody::render
