#version 450 core
// glow: pass 0 keeps the light above the knee (at half resolution), passes 1 and 2 are a
// 9-tap Gaussian along u_dir

in vec2 v_uv;
layout(binding = 0) uniform sampler2D u_src;
uniform int u_pass;
uniform vec2 u_dir;
uniform float u_knee;
uniform float u_exposure;
out vec4 out_color;

void main() {
  if (u_pass == 0) {
    vec3 c = texture(u_src, v_uv).rgb * u_exposure;
    float m = max(max(c.r, c.g), c.b);
    out_color = vec4(m > u_knee ? c * (m - u_knee) / max(m, 1e-6) : vec3(0.0), 1.0);
    return;
  }
  const float w[5] = float[5](0.227027, 0.1945946, 0.1216216, 0.054054, 0.016216);
  vec3 sum = texture(u_src, v_uv).rgb * w[0];
  for (int i = 1; i < 5; ++i) {
    sum += texture(u_src, v_uv + u_dir * float(i) * 1.5).rgb * w[i];
    sum += texture(u_src, v_uv - u_dir * float(i) * 1.5).rgb * w[i];
  }
  out_color = vec4(sum, 1.0);
}
