// The damped linear least-squares step of the ephemeris fit (see fit.hpp): Householder QR of
// the column-scaled Jacobian with sqrt(λ) I rows appended (Levenberg-Marquardt).
#include <cmath>

#include "sim/core/error.hpp"
#include "sim/sky/fit.hpp"

namespace nbody::sky::detail {

std::vector<double> damped_least_squares(const std::vector<double>& J, int m, int n,
                                         const std::vector<double>& r, double lambda) {
  // column norms: the scaled problem has unit columns, so λ means the same for every parameter
  std::vector<double> D(n, 0.0);
  for (int i = 0; i < m; ++i)
    for (int c = 0; c < n; ++c)
      D[c] += J[static_cast<std::size_t>(i) * n + c] * J[static_cast<std::size_t>(i) * n + c];
  for (int c = 0; c < n; ++c) {
    D[c] = std::sqrt(D[c]);
    if (!(D[c] > 0) || !std::isfinite(D[c]))
      fail("ephemeris fit: parameter ", c, " has no effect on the residuals (a zero column)");
  }
  // A = [J D^-1; sqrt(λ) I], column-major; b = -[r; 0]
  const int rows = m + (lambda > 0 ? n : 0);
  std::vector<double> A(static_cast<std::size_t>(rows) * n, 0.0), b(rows, 0.0);
  for (int c = 0; c < n; ++c) {
    double* col = A.data() + static_cast<std::size_t>(c) * rows;
    for (int i = 0; i < m; ++i)
      col[i] = J[static_cast<std::size_t>(i) * n + c] / D[c];
    if (lambda > 0) col[m + c] = std::sqrt(lambda);
  }
  for (int i = 0; i < m; ++i)
    b[i] = -r[i];
  // householder: A = Q R, b <- Q^T b
  for (int k = 0; k < n; ++k) {
    double* ak = A.data() + static_cast<std::size_t>(k) * rows;
    double norm = 0;
    for (int i = k; i < rows; ++i)
      norm += ak[i] * ak[i];
    norm = std::sqrt(norm);
    if (!(norm > 0)) fail("ephemeris fit: the Jacobian is rank deficient (column ", k, ")");
    const double alpha = ak[k] > 0 ? -norm : norm;
    // v = a_k - alpha e_k, stored in place; beta = 2 / |v|²
    ak[k] -= alpha;
    double vv = 0;
    for (int i = k; i < rows; ++i)
      vv += ak[i] * ak[i];
    auto reflect = [&](double* y) {
      double dot = 0;
      for (int i = k; i < rows; ++i)
        dot += ak[i] * y[i];
      const double f = 2 * dot / vv;
      for (int i = k; i < rows; ++i)
        y[i] -= f * ak[i];
    };
    for (int c = k + 1; c < n; ++c)
      reflect(A.data() + static_cast<std::size_t>(c) * rows);
    reflect(b.data());
    ak[k] = alpha;  // R's diagonal (the rest of v is not needed any more)
  }
  // R y = (Q^T b)[0:n], then δ = D^-1 y
  std::vector<double> y(n);
  for (int k = n - 1; k >= 0; --k) {
    double s = b[k];
    for (int c = k + 1; c < n; ++c)
      s -= A[static_cast<std::size_t>(c) * rows + k] * y[c];
    y[k] = s / A[static_cast<std::size_t>(k) * rows + k];
  }
  for (int c = 0; c < n; ++c)
    y[c] /= D[c];
  return y;
}

}  // namespace nbody::sky::detail
