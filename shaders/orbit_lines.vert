#version 450 core
// orbit outlines: position and colour per vertex

layout(location = 0) in vec3 in_pos;
layout(location = 1) in vec3 in_color;

uniform mat4 u_view_proj;

out vec3 v_color;

void main() {
  v_color = in_color;
  gl_Position = u_view_proj * vec4(in_pos, 1.0);
}
