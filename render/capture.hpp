#pragma once
// Screenshots: read the bound framebuffer and write a PNG (stb_image_write).

#include <cstdint>
#include <string>
#include <vector>

namespace nbody::render {

/// An RGBA8 image, rows top to bottom.
struct Image {
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgba;
};

/// Reads w×h pixels at (0, 0) of the framebuffer bound for reading, flipped so row 0 is the top.
Image read_framebuffer(int width, int height);
/// Where the light of an image is: pixels whose brightest channel is above `threshold`, and
/// their brightness-weighted centre (pixels, origin top-left; -1 when none is lit).
struct ImageLight {
  long lit = 0;
  double x = -1, y = -1;
};
ImageLight measure_light(const Image& img, int threshold = 40);
/// Writes `img` as PNG through io::write_file (atomic, refuses FIFOs and devices); throws
/// GlError or nbody::Error naming the path and the reason when it cannot.
void write_png(const std::string& path, const Image& img);

}  // namespace nbody::render
