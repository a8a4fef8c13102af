/** Seeded vectors for the vector engine's tests: clustered, like embeddings. */
export function clustered(count: number, dim: number, seed: number, clusters = 16): Float32Array[] {
  let x = seed >>> 0 || 1;
  const uniform = (): number => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return ((x >>> 0) + 1) / 4294967297;
  };
  const normal = (): number => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
  const centres = Array.from({ length: clusters }, () => Float32Array.from({ length: dim }, normal));
  return Array.from({ length: count }, () => {
    const c = centres[Math.floor(uniform() * clusters)];
    return Float32Array.from(c, (v) => v + 0.7 * normal());
  });
}

/** Indices of the k largest dot products with `q`, computed the plain way in float64. */
export function bruteForce(vectors: Float32Array[], q: Float32Array, k: number, normalize: boolean, accept: (i: number) => boolean = () => true): number[] {
  const norm = (v: Float32Array): number => (normalize ? Math.sqrt(v.reduce((s, a) => s + a * a, 0)) || 1 : 1);
  const qn = norm(q);
  return vectors
    .map((v, i) => ({ i, s: v.reduce((s, a, d) => s + a * q[d], 0) / (norm(v) * qn) }))
    .filter(({ i }) => accept(i))
    .sort((a, b) => b.s - a.s)
    .slice(0, k)
    .map(({ i }) => i);
}

/** Fraction of `expected` found in `got`. */
export function recall(got: ArrayLike<number>, expected: number[]): number {
  const set = new Set(Array.from(got));
  return expected.filter((e) => set.has(e)).length / Math.max(1, expected.length);
}
