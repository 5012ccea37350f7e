# Rings of a saved disk galaxy (an `nbody simulate -o FILE.csv` state): for the disk's stars about
# their own centre, in rings of cylindrical radius, the count, the mean |z| and the m = 2 Fourier
# amplitude A2 = |sum exp(2i phi)| / count (a bar or a two-armed spiral: ~0.1 and more; a
# featureless disk of n stars: ~1/sqrt(n)). The disk's plane is the file's x-y plane.
#   awk -F, -f scripts/disk_rings.awk STATE.csv
/^#/ || $8 != "disk" { next }
{ n++; x[n] = $1; y[n] = $2; z[n] = $3; sx += $1; sy += $2; sz += $3 }
END {
  if (n == 0) { print "disk_rings: no disk stars"; exit 1 }
  cx = sx / n; cy = sy / n; cz = sz / n
  split("0 1 2 3 4 6 9 15", edge, " ")
  rings = length(edge) - 1
  for (i = 1; i <= n; ++i) {
    dx = x[i] - cx; dy = y[i] - cy; r = sqrt(dx * dx + dy * dy)
    for (k = 1; k <= rings; ++k)
      if (r >= edge[k] && r < edge[k + 1]) {
        c[k]++; zz[k] += (z[i] - cz < 0 ? cz - z[i] : z[i] - cz)
        p = atan2(dy, dx); re[k] += cos(2 * p); im[k] += sin(2 * p)
        break
      }
  }
  printf "ring (kpc)  stars  mean|z| (kpc)  A2\n"
  for (k = 1; k <= rings; ++k)
    if (c[k] > 0)
      printf "%2d-%-2d  %9d  %8.4f  %7.4f\n", edge[k], edge[k + 1], c[k], zz[k] / c[k],
             sqrt(re[k] * re[k] + im[k] * im[k]) / c[k]
}
