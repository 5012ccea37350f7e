// Starting states fitted to the ephemeris (sim/sky/fit.hpp, issue 21): the least-squares step,
// the cache (round trip, a corrupt file ignored with a notice), and the targets with the real-sky
// scenes' defaults: 10 years from two dates, every planet and Pluto within 2e-7 AU of the Swiss
// Ephemeris and the Moon within 1e-6 AU; 100 years from J2000, every planet within 3e-6 AU. The
// full table (more dates, the unfitted errors) is in docs/PERFORMANCE.md.

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>

#include "sim/core/backend.hpp"
#include "sim/core/scene.hpp"
#include "sim/sky/fit.hpp"
#include "tests/sim/sky/temp_cache.hpp"
#include "tests/test_util.hpp"

namespace nbody {
namespace {

namespace fs = std::filesystem;
using sky::Body;

using TempCache = nbody::testing::TempCache;

TEST(SkyFit, LeastSquaresStep) {
  // an overdetermined linear system with a known solution: λ = 0 finds it, λ > 0 shortens it
  const int m = 40, n = 5;
  std::mt19937 rng(7);
  std::normal_distribution<double> g(0, 1);
  // columns of scales 1e-4..1e4, each contributing O(1) to the residuals
  std::vector<double> J(m * n), x_true = {1e4, -2e2, 3.0, 5e-2, -2.5e-4}, r(m), D(n, 0.0);
  for (int i = 0; i < m; ++i)
    for (int c = 0; c < n; ++c) {
      J[i * n + c] = g(rng) * std::pow(100.0, c - 2);
      D[c] += J[i * n + c] * J[i * n + c];
    }
  for (int i = 0; i < m; ++i) {
    double s = 0;
    for (int c = 0; c < n; ++c)
      s += J[i * n + c] * x_true[c];
    r[i] = -s;  // J δ + r = 0 at δ = x_true
  }
  const std::vector<double> d = sky::detail::damped_least_squares(J, m, n, r, 0.0);
  for (int c = 0; c < n; ++c)
    EXPECT_NEAR(d[c], x_true[c], 1e-12 * std::abs(x_true[c])) << c;
  // damping shortens the step in the scaled parameters (|D δ|, D the column norms)
  const std::vector<double> dl = sky::detail::damped_least_squares(J, m, n, r, 1.0);
  double n0 = 0, n1 = 0;
  for (int c = 0; c < n; ++c)
    n0 += d[c] * d[c] * D[c], n1 += dl[c] * dl[c] * D[c];
  EXPECT_LT(n1, 0.9 * n0);
  EXPECT_GT(n1, 0.0);
  // a parameter without effect is named
  std::vector<double> Z = J;
  for (int i = 0; i < m; ++i)
    Z[i * n + 2] = 0;
  EXPECT_NE(test::error_of([&] {
              sky::detail::damped_least_squares(Z, m, n, r, 0.0);
            }).find("parameter 2 has no effect"),
            std::string::npos);
}

TEST(SkyFit, CacheRoundTripAndCorruptFile) {
  TempCache cache("nbody_sky_fit_");
  // a small fit (the Sun and Jupiter, a 40-day window) keeps this quick
  sky::FitOptions o;
  o.window_days = 40;
  o.sample_days = 8;
  std::vector<std::string> notices;
  o.notice = [&](const std::string& m) { notices.push_back(m); };
  const std::vector<Body> which = {Body::Sun, Body::Jupiter};
  const double jd = sky::kJ2000 + 0.25;
  sky::FitReport r1, r2, r3;
  const Bodies b1 = sky::fitted_bodies(which, jd, o, &r1);
  EXPECT_FALSE(r1.from_cache);
  ASSERT_FALSE(r1.cache_path.empty());
  EXPECT_EQ(fs::path(r1.cache_path).parent_path().parent_path(), cache.dir() / "nbody");
  ASSERT_TRUE(fs::exists(r1.cache_path));
  EXPECT_LT(r1.max_au, r1.unfitted_max_au);
  std::printf("%s\n", r1.summary().c_str());
  // the second time from the cache, the same bits; a date within the day shares it
  const Bodies b2 = sky::fitted_bodies(which, jd, o, &r2);
  EXPECT_TRUE(r2.from_cache);
  EXPECT_EQ(r2.max_au, r1.max_au);
  for (std::size_t i = 0; i < b1.size(); ++i) {
    EXPECT_EQ(b2.x[i], b1.x[i]);
    EXPECT_EQ(b2.vz[i], b1.vz[i]);
  }
  sky::fitted_bodies(which, jd - 0.2, o, &r2);
  EXPECT_TRUE(r2.from_cache);
  EXPECT_TRUE(notices.empty());
  // a file cut short: a notice naming it, a new fit, the same states, the file written again
  {
    std::ifstream in(r1.cache_path);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::ofstream out(r1.cache_path, std::ios::trunc);
    out << text.substr(0, text.size() / 2);
  }
  const Bodies b3 = sky::fitted_bodies(which, jd, o, &r3);
  EXPECT_FALSE(r3.from_cache);
  ASSERT_EQ(notices.size(), 1u);
  EXPECT_NE(notices[0].find(r1.cache_path), std::string::npos) << notices[0];
  EXPECT_NE(notices[0].find("ignoring"), std::string::npos) << notices[0];
  for (std::size_t i = 0; i < b1.size(); ++i)
    EXPECT_EQ(b3.x[i], b1.x[i]);
  sky::fitted_bodies(which, jd, o, &r3);
  EXPECT_TRUE(r3.from_cache);
  // the parser refuses what is not a whole, finite cache of these bodies and this key
  const std::string text = sky::detail::cache_text("k", b1, r1);
  Bodies b = b1;
  sky::FitReport r;
  std::string why;
  EXPECT_TRUE(sky::detail::parse_cache(text, "k", b1.name, b, r, why)) << why;
  EXPECT_FALSE(sky::detail::parse_cache(text, "other", b1.name, b, r, why));
  EXPECT_FALSE(sky::detail::parse_cache(text, "k", {"Sun", "Saturn"}, b, r, why));
  std::string nan = text;
  nan.replace(nan.find("body Jupiter ") + 13, 1, "nan ");
  EXPECT_FALSE(sky::detail::parse_cache(nan, "k", b1.name, b, r, why));
  EXPECT_NE(why.find("Jupiter"), std::string::npos) << why;
}

// the solar-system scene at `jd` with its defaults, run `years`: heliocentric distances (AU)
// of every body from the ephemeris
// (eih: the scene's parameter eih = 1, the EIH 1PN term in the fit and the run)
std::vector<double> scene_errors(double jd, double years, bool fit, double* seconds = nullptr,
                                 bool eih = false) {
  SceneParams sp;
  sp.values["jd"] = jd;
  sp.values["fit"] = fit ? 1 : 0;
  sp.values["eih"] = eih ? 1 : 0;
  const Scene s = make_scene("solar-system", sp);
  EXPECT_EQ(s.precision, Precision::Double);
  EXPECT_TRUE(s.post_newtonian);
  EXPECT_EQ(s.pn_model, eih ? PnModel::EIH : PnModel::Sun);
  for (const std::string& n : s.notes)
    EXPECT_TRUE(!fit || n.find(eih ? " eih" : " 1pn") != std::string::npos) << n;
  SimParams p;
  p.kernel = "cpu-reference";
  p.precision = s.precision;
  p.integrator = s.integrator;
  p.post_newtonian = s.post_newtonian;
  p.pn_model = s.pn_model;
  p.speed_of_light = sky::kLightAuPerDay;
  p.dt = s.dt;
  p.softening = s.softening;
  p.G = s.units.G;
  auto backend = make_backend(p);
  backend->set_bodies(s.bodies);
  const long long steps = std::llround(years * 365.25 / s.dt);
  const auto t0 = std::chrono::steady_clock::now();
  for (long long done = 0; done < steps;) {
    const int k = static_cast<int>(std::min<long long>(steps - done, 1 << 20));
    backend->step(p, k);
    done += k;
  }
  if (seconds)
    *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  Bodies b;
  backend->get_bodies(b);
  std::vector<double> err(sky::kBodyCount, 0.0);
  for (int k = 1; k < sky::kBodyCount; ++k) {
    EXPECT_EQ(s.bodies.name[k], sky::body_name(static_cast<Body>(k)));
    const sky::State ref = sky::heliocentric_state(static_cast<Body>(k), jd + steps * s.dt);
    err[k] = std::hypot(b.x[k] - b.x[0] - ref.r[0], b.y[k] - b.y[0] - ref.r[1],
                        b.z[k] - b.z[0] - ref.r[2]);
  }
  return err;
}

void print(const char* what, const std::vector<double>& e) {
  std::printf("%-30s", what);
  for (int k = 1; k < sky::kBodyCount; ++k)
    std::printf(" %s %.1e", sky::body_name(static_cast<Body>(k)), e[k]);
  std::printf("\n");
}

TEST(SkyFit, TenYearsWithTheDefaults) {
  TempCache cache("nbody_sky_fit_");
  // 1950 and 2200 (J2000 is the 100-year test's)
  for (const double jd : {2433282.5, 2524593.5}) {
    const std::vector<double> e = scene_errors(jd, 10, true);
    char what[64];
    std::snprintf(what, sizeof what, "JD %.1f, 10 yr, fitted:", jd);
    print(what, e);
    for (int k = 1; k < sky::kBodyCount; ++k) {
      const auto b = static_cast<Body>(k);
      EXPECT_LE(e[k], b == Body::Moon ? 1e-6 : 2e-7) << sky::body_name(b) << " at JD " << jd;
    }
    // the fit is what reaches it: the ephemeris' own states are 10x worse for the Earth
    if (jd == 2433282.5) {
      const std::vector<double> u = scene_errors(jd, 10, false);
      print("  the same, unfitted:", u);
      EXPECT_GT(u[int(Body::Earth)], 10 * e[int(Body::Earth)]);
    }
  }
}

TEST(SkyFit, HundredYearsWithTheDefaults) {
  TempCache cache("nbody_sky_fit_");
  double seconds = 0;
  const std::vector<double> e = scene_errors(sky::kJ2000, 100, true, &seconds);
  print("J2000, 100 yr, fitted:", e);
  std::printf("(100 years: %.1f s)\n", seconds);
  for (int k = 1; k < sky::kBodyCount; ++k) {
    const auto b = static_cast<Body>(k);
    if (b == Body::Moon || b == Body::Pluto) continue;  // the target is the planets'
    EXPECT_LE(e[k], 3e-6) << sky::body_name(b);
  }
}

// issue 21 item 6: the EIH 1PN term of every body (scene parameter eih = 1) meets the same
// ten-year targets, with its own fit (keyed apart from the Sun-only one's)
TEST(SkyFit, TenYearsWithEih) {
  TempCache cache("nbody_sky_fit_");
  sky::SkyModel m;
  const std::string sun = m.key();
  m.pn_model = PnModel::EIH;
  EXPECT_NE(m.key(), sun);
  EXPECT_NE(m.key().find("eih"), std::string::npos) << m.key();
  EXPECT_EQ(m.params().pn_model, PnModel::EIH);
  const std::vector<double> e = scene_errors(2433282.5, 10, true, nullptr, true);
  print("JD 2433282.5, 10 yr, EIH:", e);
  for (int k = 1; k < sky::kBodyCount; ++k) {
    const auto b = static_cast<Body>(k);
    EXPECT_LE(e[k], b == Body::Moon ? 1e-6 : 2e-7) << sky::body_name(b);
  }
}

// The table of docs/PERFORMANCE.md, "Sun-only 1PN against EIH" (minutes of CPU; run with
// --gtest_also_run_disabled_tests --gtest_filter=*SunAgainstEih*): 10 and 100 years from
// several dates with each 1PN term, each with its own fit, and the time of each run.
TEST(SkyFit, DISABLED_SunAgainstEihTable) {
  TempCache cache("nbody_sky_fit_");
  struct Run {
    double jd, years;
  };
  for (const Run r :
       {Run{2433282.5, 10}, Run{2524593.5, 10}, Run{2396758.5, 10}, Run{2488069.5, 10},
        Run{sky::kJ2000, 100}, Run{2396758.5, 100}, Run{2488069.5, 100}}) {
    for (const bool eih : {false, true}) {
      double seconds = 0;
      const std::vector<double> e = scene_errors(r.jd, r.years, true, &seconds, eih);
      char what[80];
      std::snprintf(what, sizeof what, "JD %.1f, %g yr, %s (%.1f s):", r.jd, r.years,
                    eih ? "eih" : "sun", seconds);
      print(what, e);
      std::fflush(stdout);
    }
  }
}

// What the EIH term changes, from the same (unfitted) start at J2000: the distance between the
// Sun-only and the EIH runs after 10 and 100 years (docs/PERFORMANCE.md; the fit absorbs it)
TEST(SkyFit, DISABLED_SunAgainstEihFromOneStart) {
  SceneParams sp;
  sp.values = {{"jd", sky::kJ2000}, {"fit", 0}};
  const Scene s = make_scene("solar-system", sp);
  for (const double years : {10.0, 100.0}) {
    Bodies end[2];
    for (int k = 0; k < 2; ++k) {
      SimParams p = sky::default_sky_model().params();
      p.pn_model = k ? PnModel::EIH : PnModel::Sun;
      auto backend = make_backend(p);
      backend->set_bodies(s.bodies);
      backend->step(p, static_cast<int>(std::llround(years * 365.25 / p.dt)));
      backend->get_bodies(end[k]);
    }
    std::vector<double> d(sky::kBodyCount, 0.0);
    for (int k = 1; k < sky::kBodyCount; ++k)
      d[k] = std::hypot(end[1].x[k] - end[1].x[0] - (end[0].x[k] - end[0].x[0]),
                        end[1].y[k] - end[1].y[0] - (end[0].y[k] - end[0].y[0]),
                        end[1].z[k] - end[1].z[0] - (end[0].z[k] - end[0].z[0]));
    char what[64];
    std::snprintf(what, sizeof what, "EIH - Sun, %g yr:", years);
    print(what, d);
  }
}

TEST(SkyFit, UnfittedSceneIsTheEphemeris) {
  // fit = 0, heliocentric: the ephemeris' states as they are
  SceneParams sp;
  sp.values = {{"jd", sky::kJ2000}, {"fit", 0}, {"barycentric", 0}};
  const Scene s = make_scene("solar-system", sp);
  const sky::State e = sky::heliocentric_state(Body::Earth, sky::kJ2000);
  EXPECT_EQ(s.bodies.x[3], e.r[0]);
  EXPECT_EQ(s.bodies.vy[3], e.v[1]);
  EXPECT_EQ(s.bodies.x[0], 0.0);
  EXPECT_TRUE(s.notes.empty());
}

}  // namespace
}  // namespace nbody
