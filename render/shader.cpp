#include "render/shader.hpp"

#include <cctype>
#include <sstream>

#include <glm/gtc/type_ptr.hpp>

namespace nbody::render {

std::string_view shader_source(std::string_view name) {
  std::string known;
  for (const auto& s : embedded_shaders()) {
    if (s.name == name) return s.source;
    known += (known.empty() ? "" : ", ") + std::string(s.name);
  }
  throw GlError("no embedded shader '" + std::string(name) + "' (embedded: " + known + ")");
}

std::string annotate_log(std::string_view log, std::string_view file) {
  std::string out;
  std::istringstream in{std::string(log)};
  std::string line;
  while (std::getline(in, line)) {
    // mesa: "0:12(5): error: ...", nvidia: "0(12) : error C1008: ..."
    std::size_t pos = 0;
    while (pos < line.size() && std::isspace(static_cast<unsigned char>(line[pos])))
      ++pos;
    std::string rewritten;
    if (pos + 2 < line.size() && line[pos] == '0' &&
        (line[pos + 1] == ':' || line[pos + 1] == '(')) {
      std::size_t d = pos + 2, e = d;
      while (e < line.size() && std::isdigit(static_cast<unsigned char>(line[e])))
        ++e;
      if (e > d) {
        std::size_t rest = e;
        if (line[pos + 1] == '(' && rest < line.size() && line[rest] == ')') ++rest;
        if (rest < line.size() && line[rest] == '(') {  // mesa column "(5)"
          while (rest < line.size() && line[rest] != ')')
            ++rest;
          if (rest < line.size()) ++rest;
        }
        while (rest < line.size() && (line[rest] == ' ' || line[rest] == ':'))
          ++rest;
        rewritten = std::string(file) + ":" + line.substr(d, e - d) + ": " + line.substr(rest);
      }
    }
    if (rewritten.empty() && !line.empty()) rewritten = std::string(file) + ": " + line;
    if (!rewritten.empty()) out += rewritten + "\n";
  }
  return out;
}

Shader compile_shader(GLenum type, std::string_view source, std::string_view file) {
  Shader s = Shader::create(type);
  const char* src = source.data();
  auto len = static_cast<GLint>(source.size());
  glShaderSource(s.id(), 1, &src, &len);
  glCompileShader(s.id());
  GLint ok = 0;
  glGetShaderiv(s.id(), GL_COMPILE_STATUS, &ok);
  if (!ok) {
    GLint n = 0;
    glGetShaderiv(s.id(), GL_INFO_LOG_LENGTH, &n);
    std::string log(static_cast<std::size_t>(n > 0 ? n : 1), '\0');
    glGetShaderInfoLog(s.id(), n, nullptr, log.data());
    throw GlError("shader compilation failed:\n" + annotate_log(log.c_str(), file));
  }
  return s;
}

std::string expand_includes(std::string_view source) {
  std::string out;
  std::size_t line_no = 0, pos = 0;
  while (pos < source.size()) {
    std::size_t end = source.find('\n', pos);
    if (end == std::string_view::npos) end = source.size();
    const std::string_view line = source.substr(pos, end - pos);
    ++line_no;
    const std::string_view key = "#include \"";
    const std::size_t close = line.rfind('"');
    if (line.substr(0, key.size()) == key && close > key.size()) {
      // the included file, then the including file's numbering again
      out += shader_source(line.substr(key.size(), close - key.size()));
      out += "\n#line " + std::to_string(line_no + 1) + "\n";
    } else {
      out += line;
      out += '\n';
    }
    pos = end + 1;
  }
  return out;
}

Program build_program(std::initializer_list<std::pair<GLenum, std::string_view>> stages) {
  Program p = Program::create();
  std::vector<Shader> shaders;
  std::string names;
  for (const auto& [type, name] : stages) {
    shaders.push_back(compile_shader(type, expand_includes(shader_source(name)), name));
    glAttachShader(p.id(), shaders.back().id());
    names += (names.empty() ? "" : " + ") + std::string(name);
  }
  glLinkProgram(p.id());
  GLint ok = 0;
  glGetProgramiv(p.id(), GL_LINK_STATUS, &ok);
  for (const auto& s : shaders)
    glDetachShader(p.id(), s.id());
  if (!ok) {
    GLint n = 0;
    glGetProgramiv(p.id(), GL_INFO_LOG_LENGTH, &n);
    std::string log(static_cast<std::size_t>(n > 0 ? n : 1), '\0');
    glGetProgramInfoLog(p.id(), n, nullptr, log.data());
    throw GlError("linking " + names + " failed:\n" + log.c_str());
  }
  return p;
}

void set_uniform(const Program& p, const char* name, float v) {
  glProgramUniform1f(p.id(), glGetUniformLocation(p.id(), name), v);
}
void set_uniform(const Program& p, const char* name, int v) {
  glProgramUniform1i(p.id(), glGetUniformLocation(p.id(), name), v);
}
void set_uniform(const Program& p, const char* name, const glm::vec2& v) {
  glProgramUniform2fv(p.id(), glGetUniformLocation(p.id(), name), 1, glm::value_ptr(v));
}
void set_uniform(const Program& p, const char* name, const glm::vec3& v) {
  glProgramUniform3fv(p.id(), glGetUniformLocation(p.id(), name), 1, glm::value_ptr(v));
}
void set_uniform(const Program& p, const char* name, const glm::vec4& v) {
  glProgramUniform4fv(p.id(), glGetUniformLocation(p.id(), name), 1, glm::value_ptr(v));
}
void set_uniform(const Program& p, const char* name, const glm::mat4& v) {
  glProgramUniformMatrix4fv(p.id(), glGetUniformLocation(p.id(), name), 1, GL_FALSE,
                            glm::value_ptr(v));
}

void set_distance_uniforms(const Program& p, const DistanceMap& m) {
  set_uniform(p, "u_dist_log", m.identity() ? 0 : 1);
  set_uniform(p, "u_dist_centre", m.centre);
  set_uniform(p, "u_dist_ref", m.reference);
  set_uniform(p, "u_dist_inner", m.inner);
}

}  // namespace nbody::render
