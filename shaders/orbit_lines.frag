#version 450 core
// an orbit's colour, faint, added to the frame

in vec3 v_color;
uniform float u_alpha;
out vec4 out_color;

void main() {
  out_color = vec4(v_color * u_alpha, 1.0);
}
