;; Distance kernels of Yarrow's vector engine, in WebAssembly SIMD (V8 vectorises no plain
;; JavaScript loop, so this is where the 4x-16x comes from).
;;
;; Source of truth for src/engine/vector/kernels/distance-kernels.generated.ts: after editing, run
;; `npm run build:wasm`; test/engine/vector/kernels.test.ts checks that the committed bytes are what
;; this file compiles to.
;;
;; Conventions (the JavaScript side, vector-arena.ts, keeps them):
;; - Every pointer is a byte offset into the one exported memory.
;; - float32 vectors are padded with zeros to a multiple of 8 lanes (32 bytes), int8 vectors to a
;;   multiple of 16 lanes (16 bytes); `n` is that padded length, so no loop has a scalar tail. Zero
;;   padding does not change a dot product.
;; - int8 codes lie in [-127, 127]: two products (2 x 127^2) fit an i32 lane of dot_i16x8 with
;;   room to spare, and the int32 sum is exact up to 65536 dimensions.
;; - Batch kernels take a list of vector ordinals (`ids`, int32) or a range, and write one float32
;;   score per vector to `out`; one call per graph expansion keeps the JS/Wasm boundary off the hot
;;   path.
(module
  (memory (export "memory") 1)

  ;; Dot product of two float32 vectors of n lanes (n a multiple of 8).
  (func $dot_f32 (export "dot_f32") (param $a i32) (param $b i32) (param $n i32) (result f32)
    (local $end i32) (local $acc0 v128) (local $acc1 v128) (local $s v128)
    (local.set $end (i32.add (local.get $a) (i32.shl (local.get $n) (i32.const 2))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $a) (local.get $end)))
        (local.set $acc0 (f32x4.add (local.get $acc0)
          (f32x4.mul (v128.load (local.get $a)) (v128.load (local.get $b)))))
        (local.set $acc1 (f32x4.add (local.get $acc1)
          (f32x4.mul (v128.load offset=16 (local.get $a)) (v128.load offset=16 (local.get $b)))))
        (local.set $a (i32.add (local.get $a) (i32.const 32)))
        (local.set $b (i32.add (local.get $b) (i32.const 32)))
        (br $next)))
    (local.set $s (f32x4.add (local.get $acc0) (local.get $acc1)))
    (f32.add
      (f32.add (f32x4.extract_lane 0 (local.get $s)) (f32x4.extract_lane 1 (local.get $s)))
      (f32.add (f32x4.extract_lane 2 (local.get $s)) (f32x4.extract_lane 3 (local.get $s)))))

  ;; Dot product of two int8 vectors of n lanes (n a multiple of 16), accumulated in int32.
  ;; v128.load8x8_s sign-extends 8 codes to i16 lanes as it loads (pmovsxbw on x86), and
  ;; i32x4.dot_i16x8_s multiplies and adds pairs (pmaddwd): four cheap instructions per 8 lanes,
  ;; where extmul_high_i8x16 needs shuffles.
  (func $dot_i8 (export "dot_i8") (param $a i32) (param $b i32) (param $n i32) (result i32)
    (local $end i32) (local $acc0 v128) (local $acc1 v128) (local $s v128)
    (local.set $end (i32.add (local.get $a) (local.get $n)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $a) (local.get $end)))
        (local.set $acc0 (i32x4.add (local.get $acc0)
          (i32x4.dot_i16x8_s (v128.load8x8_s (local.get $a)) (v128.load8x8_s (local.get $b)))))
        (local.set $acc1 (i32x4.add (local.get $acc1)
          (i32x4.dot_i16x8_s (v128.load8x8_s offset=8 (local.get $a)) (v128.load8x8_s offset=8 (local.get $b)))))
        (local.set $a (i32.add (local.get $a) (i32.const 16)))
        (local.set $b (i32.add (local.get $b) (i32.const 16)))
        (br $next)))
    (local.set $s (i32x4.add (local.get $acc0) (local.get $acc1)))
    (i32.add
      (i32.add (i32x4.extract_lane 0 (local.get $s)) (i32x4.extract_lane 1 (local.get $s)))
      (i32.add (i32x4.extract_lane 2 (local.get $s)) (i32x4.extract_lane 3 (local.get $s)))))

  ;; out[j] = dot(q, base + ids[j] * stride) for j < count; stride in bytes.
  (func (export "dot_f32_ids")
    (param $q i32) (param $base i32) (param $stride i32) (param $n i32)
    (param $ids i32) (param $count i32) (param $out i32)
    (local $end i32)
    (local.set $end (i32.add (local.get $ids) (i32.shl (local.get $count) (i32.const 2))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $ids) (local.get $end)))
        (f32.store (local.get $out)
          (call $dot_f32 (local.get $q)
            (i32.add (local.get $base) (i32.mul (i32.load (local.get $ids)) (local.get $stride)))
            (local.get $n)))
        (local.set $ids (i32.add (local.get $ids) (i32.const 4)))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br $next))))

  ;; out[j] = dot(q, base + (first + j) * stride) for j < count.
  (func (export "dot_f32_range")
    (param $q i32) (param $base i32) (param $stride i32) (param $n i32)
    (param $first i32) (param $count i32) (param $out i32)
    (local $v i32) (local $end i32)
    (local.set $v (i32.add (local.get $base) (i32.mul (local.get $first) (local.get $stride))))
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $count) (i32.const 2))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (f32.store (local.get $out) (call $dot_f32 (local.get $q) (local.get $v) (local.get $n)))
        (local.set $v (i32.add (local.get $v) (local.get $stride)))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br $next))))

  ;; out[j] = qscale * scale(v) * dot_i8(q, v) with v = base + ids[j] * stride: the int8 estimate
  ;; of the float dot product. Each int8 record carries its own scale as a float32 right after its
  ;; n code bytes (at v + n).
  (func (export "dot_i8_ids")
    (param $q i32) (param $qscale f32) (param $base i32) (param $stride i32) (param $n i32)
    (param $ids i32) (param $count i32) (param $out i32)
    (local $end i32) (local $v i32)
    (local.set $end (i32.add (local.get $ids) (i32.shl (local.get $count) (i32.const 2))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $ids) (local.get $end)))
        (local.set $v (i32.add (local.get $base) (i32.mul (i32.load (local.get $ids)) (local.get $stride))))
        (f32.store (local.get $out)
          (f32.mul
            (f32.mul (local.get $qscale) (f32.load (i32.add (local.get $v) (local.get $n))))
            (f32.convert_i32_s (call $dot_i8 (local.get $q) (local.get $v) (local.get $n)))))
        (local.set $ids (i32.add (local.get $ids) (i32.const 4)))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br $next))))

  ;; The int8 estimate for the records [first, first + count).
  (func (export "dot_i8_range")
    (param $q i32) (param $qscale f32) (param $base i32) (param $stride i32) (param $n i32)
    (param $first i32) (param $count i32) (param $out i32)
    (local $v i32) (local $end i32)
    (local.set $v (i32.add (local.get $base) (i32.mul (local.get $first) (local.get $stride))))
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $count) (i32.const 2))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (f32.store (local.get $out)
          (f32.mul
            (f32.mul (local.get $qscale) (f32.load (i32.add (local.get $v) (local.get $n))))
            (f32.convert_i32_s (call $dot_i8 (local.get $q) (local.get $v) (local.get $n)))))
        (local.set $v (i32.add (local.get $v) (local.get $stride)))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br $next))))
)
