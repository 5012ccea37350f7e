#version 450 core
// translucent heat map (alpha blending)

in vec2 v_uv;
uniform sampler2D u_map;
uniform float u_alpha;
out vec4 out_color;

void main() {
  vec4 c = texture(u_map, v_uv);
  out_color = vec4(c.rgb, c.a * u_alpha);
}
