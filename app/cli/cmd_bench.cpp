// `nbody bench`: sweeps kernels x precision x N x tunables without a window, times steps
// (CUDA events on the GPU, wall clock on the CPU), checks accelerations against the double
// reference on a sample of bodies, and prints a table plus optional CSV/JSON. Uses only the
// kernel table, so it works in builds without CUDA.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <omp.h>
#include <nlohmann/json.hpp>

#include "app/cli/commands.hpp"
#include "app/core/launch.hpp"
#include "app/core/progress.hpp"
#include "sim/core/backend.hpp"
#include "sim/core/error.hpp"
#include "sim/core/scene.hpp"
#include "sim/io/io.hpp"

namespace nbody::app {
namespace {

struct BenchOptions {
  std::vector<std::string> kernels;
  std::vector<std::string> precisions{"float"};
  std::vector<long long> n{4096, 16384, 65536};
  std::map<std::string, std::string> tunables;  ///< key -> comma-separated values (as given)
  std::vector<std::string> gpus{"1"};           ///< GPU counts of the GPU kernels (N or all)
  bool variants = false;  ///< sweep every choice of every Choice tunable not given explicitly
  int steps = 10;
  int repeats = 5;
  int warmup = 2;
  int sample = 256;
  double softening = 0.01;
  double budget_s = 30;
  unsigned seed = 1;
  std::string distribution = "sphere";  ///< sphere, cube or a generated scene's name
  std::string csv, json;
};

// one measured configuration
struct Row {
  std::string kernel;
  Precision precision = Precision::Float;
  long long n = 0;
  int gpus = 1;                            // GPUs the backend ran on
  std::map<std::string, double> tunables;  // key -> value, only the kernel's own
  int steps = 0, repeats = 0;
  double ms_median = 0, ms_min = 0, ms_max = 0;
  double per_step = 0;  // interactions per step, as the backend counted them
  double interactions = 0, gflops = 0, speedup = 0;
  double err_norm = 0, err_median = 0, err_p99 = 0, err_max = 0;
  std::vector<StepPhase> phases;                   // ms per step
  std::vector<std::vector<StepPhase>> gpu_phases;  // several GPUs: each GPU's
  bool gpu = false;
};

// the bodies of one N: uniform random in the unit sphere or the cube [-1, 1]^3 (total mass 1),
// or a generated scene (plummer, galaxy-collision, ...) at that N
Bodies make_bodies(long long n, unsigned seed, const std::string& distribution) {
  if (distribution != "sphere" && distribution != "cube") {
    SceneParams sp;
    sp.n = static_cast<std::size_t>(n);
    sp.seed = seed;
    return make_scene(distribution, sp).bodies;
  }
  const bool cube = distribution == "cube";
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  Bodies b;
  b.reserve(static_cast<std::size_t>(n));
  while (static_cast<long long>(b.size()) < n) {
    const double x = u(rng), y = u(rng), z = u(rng);
    if (!cube && x * x + y * y + z * z > 1) continue;
    b.add(x, y, z, 0.1 * u(rng), 0.1 * u(rng), 0.1 * u(rng), 1.0 / n);
  }
  return b;
}

// the bodies as a backend of precision p holds them (rounded to float for float)
Bodies rounded(const Bodies& b, Precision p) {
  if (p == Precision::Double) return b;
  Bodies r = b;
  for (auto* v : {&r.x, &r.y, &r.z, &r.vx, &r.vy, &r.vz, &r.m})
    for (double& e : *v)
      e = static_cast<float>(e);
  return r;
}

// direct sum in double for the sample (the cpu-reference formula), O(sample x N)
struct Reference {
  std::vector<std::size_t> idx;
  std::vector<double> ax, ay, az;
};
Reference reference(const Bodies& b, std::size_t sample, double G, double eps) {
  Reference r;
  r.idx = sample_indices(b.size(), sample);
  reference_accelerations(b, r.idx, G, eps, r.ax, r.ay, r.az);
  return r;
}

// the values of one tunable for kernel k: the option's list when given, else every choice of a
// Choice tunable under --variants, else the default
std::vector<double> tunable_values(const KernelInfo& k, const Tunable& t, const BenchOptions& o) {
  const auto it = o.tunables.find(t.key);
  if (it == o.tunables.end() && o.variants && t.kind == TunableKind::Choice) {
    std::vector<double> all;
    for (std::size_t c = 0; c < t.choices.size(); ++c)
      all.push_back(static_cast<double>(c));
    return all;
  }
  if (it == o.tunables.end()) return {t.def};
  std::vector<double> values;
  std::stringstream ss(it->second);
  std::string item;
  while (std::getline(ss, item, ','))
    values.push_back(t.parse(item, option_name(t.key) + " (kernel '" + k.name + "')"));
  if (values.empty()) fail(option_name(t.key), ": no value given");
  return values;
}

// every combination of the kernel's tunables
std::vector<std::map<std::string, double>> tunable_grid(const KernelInfo& k,
                                                        const BenchOptions& o) {
  std::vector<std::map<std::string, double>> grid{{}};
  for (const Tunable& t : k.tunables) {
    std::vector<std::map<std::string, double>> next;
    for (const auto& g : grid)
      for (double v : tunable_values(k, t, o)) {
        auto c = g;
        c[t.key] = v;
        next.push_back(c);
      }
    grid = next;
  }
  return grid;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

std::string tunables_text(const Row& r) {
  const KernelInfo& k = find_kernel(r.kernel);
  std::string s;
  for (const auto& [key, v] : r.tunables) {
    if (key == "block_size") continue;
    s += (s.empty() ? "" : " ") + key + "=" + k.find_tunable(key)->format(v);
  }
  return s.empty() ? "-" : s;
}

// the value of a tunable in a row, or "-" when the row's kernel has none
std::string cell(const Row& r, const std::string& key) {
  const auto it = r.tunables.find(key);
  if (it == r.tunables.end()) return "-";
  return find_kernel(r.kernel).find_tunable(key)->format(it->second);
}

// "build=0.12;traversal=1.5" (ms per step)
std::string phases_text(const std::vector<StepPhase>& phases) {
  std::ostringstream os;
  for (const StepPhase& ph : phases)
    os << (os.tellp() ? ";" : "") << ph.name << "=" << ph.ms;
  return os.str();
}
std::string phases_text(const Row& r) {
  return phases_text(r.phases);
}

std::string today() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M", std::localtime(&t));
  return buf;
}

// one configuration: accuracy on fresh bodies, then warm-up and timed repeats
Row measure(const KernelInfo& k, Precision pr, const Bodies& bodies, const Reference& ref,
            const std::map<std::string, double>& tun, int gpus, const BenchOptions& o) {
  SimParams p;
  p.gpus = gpus;
  p.kernel = k.name;
  p.precision = pr;
  p.G = 1.0;
  p.softening = o.softening;
  p.dt = 1e-4;
  p.tunables = tun;
  Row r;
  r.kernel = k.name;
  r.precision = pr;
  r.n = static_cast<long long>(bodies.size());
  r.tunables = tun;
  r.gpu = k.gpu;
  auto b = make_backend(p);
  r.gpus = b->gpus();
  b->set_bodies(bodies);
  // accuracy on the sample
  std::vector<double> ax, ay, az, sx, sy, sz;
  b->compute_accelerations(p, ax, ay, az);
  for (std::size_t i : ref.idx) {
    sx.push_back(ax[i]);
    sy.push_back(ay[i]);
    sz.push_back(az[i]);
  }
  const AccelError e = acceleration_error(sx, sy, sz, ref.ax, ref.ay, ref.az);
  r.err_norm = e.normwise;
  r.err_median = e.median;
  r.err_p99 = e.p99;
  r.err_max = e.max;
  // warm-up, then fit the steps into the time budget
  b->step(p, std::max(1, o.warmup));
  const double t1 = std::max(1e-6, b->last_step_ms());
  int steps = o.steps;
  const double budget_ms = o.budget_s * 1000.0;
  if (t1 * steps * o.repeats > budget_ms)
    steps = std::max(1, static_cast<int>(budget_ms / (t1 * o.repeats)));
  std::vector<double> times;
  for (int i = 0; i < o.repeats; ++i) {
    b->step(p, steps);
    times.push_back(b->last_step_ms());
  }
  r.steps = steps;
  r.repeats = o.repeats;
  r.ms_median = median(times);
  r.ms_min = *std::min_element(times.begin(), times.end());
  r.ms_max = *std::max_element(times.begin(), times.end());
  // the work the backend counted (a tree kernel does fewer than N² interactions)
  const StepWork w = b->last_work();
  r.per_step = w.interactions;
  r.phases = w.phases;
  r.gpu_phases = w.gpu_phases;
  r.interactions = w.interactions / (r.ms_median * 1e-3);
  r.gflops = r.interactions * w.flops_per_interaction * 1e-9;
  return r;
}

void print_row(const Row& r) {
  std::printf(
      "%-14s %-6s %9lld %4d %6s %-26s %10.4f %10.4f %10.4f %11.4g %9.1f %8.2f %9.2e %9.2e %9.2e\n",
      r.kernel.c_str(), precision_name(r.precision), r.n, r.gpus, cell(r, "block_size").c_str(),
      tunables_text(r).c_str(), r.ms_median, r.ms_min, r.ms_max, r.interactions, r.gflops,
      r.speedup, r.err_median, r.err_p99, r.err_max);
  if (!r.phases.empty()) std::printf("%16s phases (ms/step): %s\n", "", phases_text(r).c_str());
  // several GPUs: each GPU's (the first one's are above); the exchange waits for the slowest
  for (std::size_t g = 1; g < r.gpu_phases.size(); ++g)
    std::printf("%16s GPU %zu phases (ms/step): %s\n", "", g, phases_text(r.gpu_phases[g]).c_str());
  std::fflush(stdout);
}

void write_csv_rows(std::ostream& f, const std::vector<Row>& rows, const std::string& device) {
  f << "# nbody bench, " << today() << ", " << device << "\n";
  // one column per tunable key of the table, "-" where a row's kernel has none
  const std::vector<const Tunable*> keys = all_tunables();
  f << "kernel,precision,n,gpus";
  for (const Tunable* t : keys)
    f << "," << t->key;
  f << ",steps,repeats,ms_median,ms_min,ms_max,interactions_per_step,interactions_per_s,gflops,"
       "speedup_vs_baseline,err_normwise,err_median,err_p99,err_max,phases_ms\n";
  for (const Row& r : rows) {
    f << r.kernel << "," << precision_name(r.precision) << "," << r.n << "," << r.gpus;
    for (const Tunable* t : keys)
      f << "," << cell(r, t->key);
    f << "," << r.steps << "," << r.repeats << "," << r.ms_median << "," << r.ms_min << ","
      << r.ms_max << "," << r.per_step << "," << r.interactions << "," << r.gflops << ","
      << r.speedup << "," << r.err_norm << "," << r.err_median << "," << r.err_p99 << ","
      << r.err_max << "," << phases_text(r) << "\n";
  }
}

void write_csv(const std::string& path, const std::vector<Row>& rows, const std::string& device) {
  // through the one safe writer (atomic replace, the OS's reason on failure)
  io::write_file(path, [&](std::ostream& f) { write_csv_rows(f, rows, device); });
}

void write_json(const std::string& path, const std::vector<Row>& rows, const std::string& device,
                bool gpu, const BenchOptions& o) {
  nlohmann::json j;
  j["date"] = today();
  j["device"] = device;
  j["cuda_available"] = gpu;
  j["cpu_threads"] = omp_get_max_threads();
  j["steps"] = o.steps;
  j["repeats"] = o.repeats;
  j["softening"] = o.softening;
  j["sample"] = o.sample;
  j["results"] = nlohmann::json::array();
  for (const Row& r : rows) {
    nlohmann::json x;
    x["kernel"] = r.kernel;
    x["gpu"] = r.gpu;
    x["precision"] = precision_name(r.precision);
    x["n"] = r.n;
    x["gpus"] = r.gpus;
    x["distribution"] = o.distribution;
    for (const auto& [key, v] : r.tunables) {
      const Tunable* t = find_kernel(r.kernel).find_tunable(key);
      if (t->kind == TunableKind::Choice)
        x["tunables"][key] = t->format(v);
      else
        x["tunables"][key] = v;
    }
    x["steps"] = r.steps;
    x["repeats"] = r.repeats;
    x["ms_per_step"] = {{"median", r.ms_median}, {"min", r.ms_min}, {"max", r.ms_max}};
    x["interactions_per_step"] = r.per_step;
    x["interactions_per_s"] = r.interactions;
    for (const StepPhase& ph : r.phases)
      x["phases_ms"][ph.name] = ph.ms;
    for (const std::vector<StepPhase>& g : r.gpu_phases) {
      nlohmann::json one = nlohmann::json::object();
      for (const StepPhase& ph : g)
        one[ph.name] = ph.ms;
      x["gpu_phases_ms"].push_back(one);
    }
    x["gflops"] = r.gflops;
    x["speedup_vs_baseline"] = r.speedup;
    x["error"] = {
        {"normwise", r.err_norm}, {"median", r.err_median}, {"p99", r.err_p99}, {"max", r.err_max}};
    j["results"].push_back(x);
  }
  io::write_file(path, j.dump(2) + "\n");
}

void run_bench(const BenchOptions& o) {
  if (o.steps < 1) fail("--steps must be >= 1 (got ", o.steps, ")");
  if (o.repeats < 1) fail("--repeats must be >= 1 (got ", o.repeats, ")");
  if (o.sample < 256) fail("--sample must be >= 256 (got ", o.sample, ")");
  // the outputs are checked before the measurements, so a bad name loses no work
  if (!o.csv.empty()) io::check_output(o.csv, io::Format::Csv);
  if (!o.json.empty()) io::check_output(o.json, io::Format::Csv);
  for (long long n : o.n)
    if (n < 1 || n > (1LL << 28)) fail("--n: ", n, " is outside 1..268435456");
  // the device line, or why there is none
  const bool gpu = cuda_available();
  const std::string device = cuda_device_summary();
  std::printf("GPU: %s\n", device.c_str());
  std::printf("CPU: %d OpenMP threads\n", omp_get_max_threads());
  if (!gpu) std::printf("no CUDA device: GPU kernels are skipped, the CPU backends still run\n");
  // kernels: the requested ones, or every one this machine can run
  std::vector<const KernelInfo*> kernels;
  if (o.kernels.empty() || (o.kernels.size() == 1 && o.kernels[0] == "all")) {
    for (const KernelInfo& k : kernel_table())
      if (!k.gpu || gpu) kernels.push_back(&k);
  } else {
    for (const std::string& name : o.kernels) {
      const KernelInfo& k = find_kernel(name);
      if (k.gpu && !gpu) {
        std::printf("skipping %s: %s\n", name.c_str(), device.c_str());
        continue;
      }
      kernels.push_back(&k);
    }
  }
  if (kernels.empty()) fail("bench: no kernel to run on this machine (", device, ")");
  // GPU counts of the GPU kernels, checked against this machine
  std::vector<int> gpu_counts;
  for (const std::string& g : o.gpus) {
    gpu_counts.push_back(parse_gpus(g));
    if (gpu && gpu_counts.back() != 1) resolve_gpus(gpu_counts.back());
  }
  if (gpu_counts.empty()) fail("--gpus: no value given");
  std::vector<Precision> precisions;
  for (const std::string& s : o.precisions)
    precisions.push_back(parse_precision(s, "--precision"));
  // every tunable list is checked against each kernel that has it; a list no chosen kernel has
  // is an error
  for (const auto& [key, text] : o.tunables) {
    bool used = false;
    for (const KernelInfo* k : kernels)
      if (const Tunable* t = k->find_tunable(key)) {
        used = true;
        tunable_values(*k, *t, o);
      }
    if (!used) fail(option_name(key), " applies to none of the kernels benchmarked");
  }

  std::printf(
      "steps %d x repeats %d after %d warm-up steps; error vs the double reference on %d "
      "bodies; eps = %g\n\n",
      o.steps, o.repeats, o.warmup, o.sample, o.softening);
  std::printf("%-14s %-6s %9s %4s %6s %-26s %10s %10s %10s %11s %9s %8s %9s %9s %9s\n", "kernel",
              "prec", "N", "gpus", "block", "other", "ms/step", "min", "max", "inter/s", "GFLOP/s",
              "speedup", "err-med", "err-p99", "err-max");
  std::vector<Row> rows;
  int failed = 0;
  // one bar over every configuration (on a terminal)
  std::size_t configs = 0;
  for (const KernelInfo* k : kernels)
    configs += tunable_grid(*k, o).size() * (k->gpu ? gpu_counts.size() : 1);
  ProgressBar bar("bench", double(configs * o.n.size() * precisions.size()));
  double done_configs = 0;
  for (long long n : o.n) {
    const Bodies bodies = make_bodies(n, o.seed, o.distribution);
    for (Precision requested : precisions) {
      const Bodies held = rounded(bodies, requested);
      const Reference ref = reference(held, static_cast<std::size_t>(o.sample), 1.0, o.softening);
      const Reference ref_d =
          requested == Precision::Double
              ? ref
              : reference(bodies, static_cast<std::size_t>(o.sample), 1.0, o.softening);
      for (const KernelInfo* k : kernels) {
        // a kernel of one precision runs in that one (cpu-reference: double)
        Precision pr = requested;
        if (pr == Precision::Float && !k->supports_float) pr = Precision::Double;
        if (pr == Precision::Double && !k->supports_double) pr = Precision::Float;
        if (pr != requested &&
            std::find(precisions.begin(), precisions.end(), pr) != precisions.end())
          continue;  // measured under its own precision
        for (const auto& tun : tunable_grid(*k, o))
          for (const int g : k->gpu ? gpu_counts : std::vector<int>{1}) {
            bar.update(done_configs++);
            try {
              rows.push_back(measure(*k, pr, pr == Precision::Double ? bodies : held,
                                     pr == requested ? ref : ref_d, tun, g, o));
            } catch (const Error& e) {
              if (ProgressBar::enabled()) std::fprintf(stderr, "\r\033[K");
              std::printf("%-14s %-6s %9lld  failed: %s\n", k->name.c_str(), precision_name(pr), n,
                          e.what());
              ++failed;
              continue;
            }
            if (ProgressBar::enabled()) std::fprintf(stderr, "\r\033[K");
            print_row(rows.back());
          }
      }
    }
  }
  bar.finish();
  // speedup vs the best naive (or the first kernel's best) of the same precision and N
  const std::string base =
      std::any_of(rows.begin(), rows.end(), [](const Row& r) { return r.kernel == "naive"; })
          ? "naive"
          : kernels.front()->name;
  // (time per step: a tree kernel does fewer interactions for the same step)
  for (Row& r : rows) {
    // same precision when the baseline ran in it, else any precision (cpu-reference: double)
    double same = 0, any = 0;
    for (const Row& b : rows)
      if (b.kernel == base && b.n == r.n && b.ms_median > 0) {
        any = any > 0 ? std::min(any, b.ms_median) : b.ms_median;
        if (b.precision == r.precision) same = same > 0 ? std::min(same, b.ms_median) : b.ms_median;
      }
    const double best = same > 0 ? same : any;
    r.speedup = best > 0 && r.ms_median > 0 ? best / r.ms_median : 0;
  }
  std::printf(
      "\nwith speedup vs %s (its best configuration at the same N, same precision when "
      "measured):\n",
      base.c_str());
  for (const Row& r : rows)
    print_row(r);
  // the fastest configuration per N and precision (time per step)
  std::printf("\nfastest per N:\n");
  std::map<std::pair<int, long long>, const Row*> best;
  for (const Row& r : rows) {
    const Row*& b = best[{static_cast<int>(r.precision), r.n}];
    if (!b || r.ms_median < b->ms_median) b = &r;
  }
  for (const auto& [key, r] : best)
    std::printf(
        "  %-6s N = %-9lld %-14s %d GPU(s) block %-5s %-26s %.4g ms/step, %.4g interactions/s "
        "(%.1f GFLOP/s), error median %.2e\n",
        precision_name(r->precision), r->n, r->kernel.c_str(), r->gpus,
        cell(*r, "block_size").c_str(), tunables_text(*r).c_str(), r->ms_median, r->interactions,
        r->gflops, r->err_median);
  if (!o.csv.empty()) write_csv(o.csv, rows, device);
  if (!o.json.empty()) write_json(o.json, rows, device, gpu, o);
  if (rows.empty()) fail("bench: every configuration failed (", failed, " failures above)");
  if (failed > 0) std::printf("\n%d configuration(s) failed (see above)\n", failed);
}

}  // namespace

void register_bench_command(CLI::App& app) {
  auto o = std::make_shared<BenchOptions>();
  CLI::App* cmd = app.add_subcommand(
      "bench",
      "Compare force kernels: time steps (CUDA events on the GPU), interactions/s, GFLOP/s and "
      "the error against the double-precision reference on a sample of bodies");
  cmd->add_option("--kernels", o->kernels,
                  "kernels to run, comma-separated (default: all this machine can run)")
      ->delimiter(',')
      ->check(CLI::IsMember([] {
        std::vector<std::string> v{"all"};
        for (const KernelInfo& k : kernel_table())
          v.push_back(k.name);
        return v;
      }()));
  cmd->add_option("--precision", o->precisions, "float, double or float,double")
      ->delimiter(',')
      ->capture_default_str()
      ->check(CLI::IsMember({"float", "double"}));
  cmd->add_option("--n", o->n, "numbers of bodies, comma-separated")
      ->delimiter(',')
      ->capture_default_str()
      ->check(CLI::Range(1.0, 268435456.0));
  cmd->add_option("--gpus", o->gpus,
                  "GPUs of the GPU kernels: N or all, comma-separated to sweep (e.g. 1,2)")
      ->delimiter(',')
      ->capture_default_str();
  add_tunable_options(*cmd, o->tunables, "Kernel tunables (comma-separated lists are swept)", true);
  cmd->add_flag(
      "--variants", o->variants,
      "sweep every choice of every choice tunable of the chosen kernels (tiled: rsqrt, "
      "layout, masses, ftz; pairwise-atomic: reduce; ...), all combinations, except "
      "tunables given explicitly; a configuration a kernel refuses (e.g. masses=const above "
      "16,384 bodies) is reported as a failed row with the reason");
  cmd->add_option("--steps", o->steps, "leapfrog steps per timed repeat")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000000));
  cmd->add_option("--repeats", o->repeats, "timed repeats (median, min, max)")
      ->capture_default_str()
      ->check(CLI::Range(1, 10000));
  cmd->add_option("--warmup", o->warmup, "warm-up steps before timing")
      ->capture_default_str()
      ->check(CLI::Range(0, 1000000));
  cmd->add_option("--sample", o->sample, "bodies checked against the reference (>= 256)")
      ->capture_default_str()
      ->check(CLI::Range(256, 1 << 24));
  cmd->add_option("--softening", o->softening, "softening length eps")
      ->capture_default_str()
      ->check(finite_number(false));
  cmd->add_option("--budget", o->budget_s,
                  "seconds of timed steps per configuration; fewer steps when one is slow")
      ->capture_default_str()
      ->check(finite_number(true));
  cmd->add_option("--seed", o->seed, "random seed of the bodies")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 4294967295.0));
  cmd->add_option("--distribution", o->distribution,
                  "bodies: sphere (uniform in the unit sphere), cube (uniform in [-1,1]^3) or a "
                  "generated scene such as plummer or galaxy-collision")
      ->capture_default_str()
      ->check([](const std::string& d) -> std::string {
        if (d == "sphere" || d == "cube") return {};
        for (const SceneInfo& s : scene_table())
          if (s.name == d) return s.has_n ? std::string() : d + " has a fixed number of bodies";
        return "unknown distribution '" + d.substr(0, 40) +
               "' (allowed: sphere, cube or a generated scene: see simulate --list-scenes)";
      });
  cmd->add_option("--csv", o->csv, "write the results as CSV")->check(non_empty());
  cmd->add_option("--json", o->json, "write the results as JSON")->check(non_empty());
  cmd->callback([o] { run_bench(*o); });
}

}  // namespace nbody::app
