#version 450 core
// HDR -> display: exposure, a soft knee on the luminance (linear below the knee, approaching 1
// above it; the hue is kept, so dense cores saturate in colour instead of burning white),
// optional glow added before the curve, and a gamma that lifts faint light

in vec2 v_uv;
layout(binding = 0) uniform sampler2D u_hdr;
layout(binding = 1) uniform sampler2D u_glow;
uniform float u_exposure;
uniform float u_knee;
uniform float u_gamma;
uniform float u_glow_strength;
out vec4 out_color;

float knee_curve(float x, float k) {
  if (x <= k) return x;
  float room = 1.0 - k;
  return k + room * (1.0 - exp(-(x - k) / room));
}

void main() {
  vec3 c = texture(u_hdr, v_uv).rgb;
  if (u_glow_strength > 0.0) c += u_glow_strength * texture(u_glow, v_uv).rgb;
  c *= u_exposure;
  float m = max(max(c.r, c.g), c.b);
  if (m > 0.0) {
    float mapped = knee_curve(m, u_knee);
    c *= mapped / m;
    // a little white where the light is far above the knee, so cores still read as bright
    float excess = clamp((m - 4.0) / 40.0, 0.0, 0.35);
    c = mix(c, vec3(mapped), excess);
  }
  c = pow(clamp(c, 0.0, 1.0), vec3(1.0 / max(u_gamma, 0.1)));
  out_color = vec4(c, 1.0);
}
