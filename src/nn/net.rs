//! The network: its weights file and its evaluation on the CPU.
//!
//! ## Shape
//!
//! A residual tower over the input planes ([`super::planes`]), the same
//! weights for every board size:
//!
//! - input: 3x3 convolution, planes to `C` channels, bias, ReLU;
//! - `blocks` residual blocks: `x <- relu(x + conv(relu(conv(x) + b1)) + b2)`
//!   with 3x3 convolutions of `C` channels;
//! - policy: a 1x1 convolution to 2 channels, bias, ReLU, a 1x1 convolution
//!   to 1 channel, bias: one logit per point; the pass logit is a linear
//!   function of the tower's mean over the points;
//! - value (optional): the tower's mean over the points, a linear layer to
//!   `H` units, ReLU, a linear layer to 1, tanh: the side to move's
//!   expected result in -1..=1.
//!
//! Convolutions pad with zeros. There is no batch normalization: the
//! trainer trains without it, so what it saves is what runs here.
//!
//! ## Weights file
//!
//! Little-endian throughout:
//!
//! | bytes | field |
//! |-------|-------|
//! | 8 | magic `KSNNWGHT` |
//! | 4 | version, u32 ([`WEIGHTS_VERSION`]) |
//! | 4 | header text length `L`, u32 |
//! | `L` | header text, UTF-8 lines: the command that wrote the file, the data it trained on, the shape, the held-out figures |
//! | 24 | six u32: planes, blocks, channels `C`, value head (0 or 1), value hidden units `H`, reserved 0 |
//! | rest | f32 tensors, in this order and nothing after them |
//!
//! The tensors (PyTorch's layouts, output channel first):
//! input weight `[C][planes][3][3]`, input bias `[C]`; per block, weight 1
//! `[C][C][3][3]`, bias 1 `[C]`, weight 2 `[C][C][3][3]`, bias 2 `[C]`;
//! policy weight 1 `[2][C]`, bias 1 `[2]`, weight 2 `[2]`, bias 2 `[1]`;
//! pass weight `[C]`, pass bias `[1]`; with the value head, value weight 1
//! `[H][C]`, bias 1 `[H]`, weight 2 `[H]`, bias 2 `[1]`.
//!
//! ## Evaluation
//!
//! [`Evaluator`] holds every buffer for one board size and a largest
//! batch, so that an evaluation allocates nothing. A 3x3 convolution is
//! an im2col copy and one single-precision matrix product
//! ([`matrixmultiply::sgemm`], with AVX2 and FMA kernels chosen at run
//! time) over the whole batch.

use super::NnError;
use rand_xoshiro::rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The magic bytes of a weights file.
pub const WEIGHTS_MAGIC: &[u8; 8] = b"KSNNWGHT";
/// The weights format's version.
pub const WEIGHTS_VERSION: u32 = 1;

/// The network's dimensions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Input planes.
    pub planes: usize,
    /// Residual blocks.
    pub blocks: usize,
    /// Channels of the tower.
    pub channels: usize,
    /// Hidden units of the value head; 0: no value head.
    pub value_hidden: usize,
}

impl Shape {
    /// Number of f32 weights.
    pub fn weights(&self) -> usize {
        let c = self.channels;
        let conv = |i: usize, o: usize| o * i * 9 + o;
        let mut n = conv(self.planes, c) + self.blocks * 2 * conv(c, c);
        n += 2 * c + 2 + 2 + 1 + c + 1;
        if self.value_hidden > 0 {
            let h = self.value_hidden;
            n += h * c + h + h + 1;
        }
        n
    }
}

/// A 3x3 convolution's weights, `[out][in][3][3]`, and bias.
#[derive(Clone, Debug)]
struct Conv {
    w: Vec<f32>,
    b: Vec<f32>,
}

/// A network's weights.
#[derive(Clone, Debug)]
pub struct Network {
    /// The header text of its file.
    pub header: String,
    /// Its dimensions.
    pub shape: Shape,
    input: Conv,
    blocks: Vec<(Conv, Conv)>,
    policy_w1: Vec<f32>,
    policy_b1: [f32; 2],
    policy_w2: [f32; 2],
    policy_b2: f32,
    pass_w: Vec<f32>,
    pass_b: f32,
    value_w1: Vec<f32>,
    value_b1: Vec<f32>,
    value_w2: Vec<f32>,
    value_b2: f32,
}

/// Reads f32s off the front of a slice.
struct Take<'a>(&'a [f32]);

impl Take<'_> {
    fn vec(&mut self, n: usize) -> Vec<f32> {
        let (a, b) = self.0.split_at(n);
        self.0 = b;
        a.to_vec()
    }
    fn one(&mut self) -> f32 {
        self.vec(1)[0]
    }
}

impl Network {
    /// A network of `shape` from its weights in file order.
    ///
    /// # Errors
    /// [`NnError::Format`] when the count does not match the shape or a
    /// weight is not finite.
    pub fn from_weights(header: String, shape: Shape, w: &[f32]) -> Result<Network, NnError> {
        if w.len() != shape.weights() {
            return Err(NnError::Format(format!(
                "{} weights, the shape needs {}",
                w.len(),
                shape.weights()
            )));
        }
        if let Some(i) = w.iter().position(|x| !x.is_finite()) {
            return Err(NnError::Format(format!("weight {i} is not finite")));
        }
        let c = shape.channels;
        let mut t = Take(w);
        let conv = |i: usize, o: usize, t: &mut Take| Conv {
            w: t.vec(o * i * 9),
            b: t.vec(o),
        };
        let input = conv(shape.planes, c, &mut t);
        let blocks = (0..shape.blocks)
            .map(|_| (conv(c, c, &mut t), conv(c, c, &mut t)))
            .collect();
        let policy_w1 = t.vec(2 * c);
        let b1 = t.vec(2);
        let w2 = t.vec(2);
        let policy_b2 = t.one();
        let pass_w = t.vec(c);
        let pass_b = t.one();
        let h = shape.value_hidden;
        let (value_w1, value_b1, value_w2, value_b2) = if h > 0 {
            (t.vec(h * c), t.vec(h), t.vec(h), t.one())
        } else {
            (Vec::new(), Vec::new(), Vec::new(), 0.0)
        };
        Ok(Network {
            header,
            shape,
            input,
            blocks,
            policy_w1,
            policy_b1: [b1[0], b1[1]],
            policy_w2: [w2[0], w2[1]],
            policy_b2,
            pass_w,
            pass_b,
            value_w1,
            value_b1,
            value_w2,
            value_b2,
        })
    }

    /// A network of `shape` with random weights (He-scaled uniform), the
    /// same for the same seed: for benchmarks and tests.
    pub fn random(shape: Shape, seed: u64) -> Network {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut w = Vec::with_capacity(shape.weights());
        let c = shape.channels;
        let mut fill = |n: usize, fan_in: usize, w: &mut Vec<f32>| {
            let scale = (6.0 / fan_in as f64).sqrt();
            for _ in 0..n {
                let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
                w.push(((2.0 * u - 1.0) * scale) as f32);
            }
        };
        fill(c * shape.planes * 9, shape.planes * 9, &mut w);
        fill(c, 1 << 20, &mut w);
        for _ in 0..shape.blocks {
            for _ in 0..2 {
                fill(c * c * 9, c * 9, &mut w);
                fill(c, 1 << 20, &mut w);
            }
        }
        fill(2 * c, c, &mut w);
        fill(2, 1 << 20, &mut w);
        fill(2, 2, &mut w);
        fill(1, 1 << 20, &mut w);
        fill(c, c, &mut w);
        fill(1, 1 << 20, &mut w);
        if shape.value_hidden > 0 {
            let h = shape.value_hidden;
            fill(h * c, c, &mut w);
            fill(h, 1 << 20, &mut w);
            fill(h, h, &mut w);
            fill(1, 1 << 20, &mut w);
        }
        Network::from_weights(format!("random {shape:?} seed {seed}"), shape, &w)
            .expect("weights of the shape's count")
    }

    /// The weights in file order.
    pub fn weights(&self) -> Vec<f32> {
        let mut w = Vec::with_capacity(self.shape.weights());
        w.extend_from_slice(&self.input.w);
        w.extend_from_slice(&self.input.b);
        for (a, b) in &self.blocks {
            for c in [a, b] {
                w.extend_from_slice(&c.w);
                w.extend_from_slice(&c.b);
            }
        }
        w.extend_from_slice(&self.policy_w1);
        w.extend_from_slice(&self.policy_b1);
        w.extend_from_slice(&self.policy_w2);
        w.push(self.policy_b2);
        w.extend_from_slice(&self.pass_w);
        w.push(self.pass_b);
        if self.shape.value_hidden > 0 {
            w.extend_from_slice(&self.value_w1);
            w.extend_from_slice(&self.value_b1);
            w.extend_from_slice(&self.value_w2);
            w.push(self.value_b2);
        }
        w
    }

    /// The weights file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(WEIGHTS_MAGIC);
        out.extend_from_slice(&WEIGHTS_VERSION.to_le_bytes());
        out.extend_from_slice(&(self.header.len() as u32).to_le_bytes());
        out.extend_from_slice(self.header.as_bytes());
        let s = self.shape;
        for v in [
            s.planes,
            s.blocks,
            s.channels,
            usize::from(s.value_hidden > 0),
            s.value_hidden,
            0,
        ] {
            out.extend_from_slice(&(v as u32).to_le_bytes());
        }
        for x in self.weights() {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out
    }

    /// Reads a weights file's bytes.
    ///
    /// # Errors
    /// [`NnError::Format`] for another magic or version, a header that is
    /// not UTF-8, a shape out of range (planes 1..=64, blocks 0..=64,
    /// channels 1..=512, value units 0..=1024), a length that does not
    /// match the shape, or weights that are not finite.
    pub fn from_bytes(b: &[u8]) -> Result<Network, NnError> {
        let bad = |m: String| NnError::Format(format!("weights file: {m}"));
        if b.len() < 16 || &b[..8] != WEIGHTS_MAGIC {
            return Err(bad("not a kosumi nn weights file (magic)".into()));
        }
        let u = |i: usize| -> Result<usize, NnError> {
            b.get(i..i + 4)
                .map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]) as usize)
                .ok_or_else(|| bad("cut short".into()))
        };
        if u(8)? != WEIGHTS_VERSION as usize {
            return Err(bad(format!(
                "version {} (expected {WEIGHTS_VERSION})",
                u(8)?
            )));
        }
        let hl = u(12)?;
        let text = b
            .get(16..16 + hl)
            .ok_or_else(|| bad("header cut short".into()))?;
        let header =
            String::from_utf8(text.to_vec()).map_err(|_| bad("header not UTF-8".into()))?;
        let at = 16 + hl;
        let planes = u(at)?;
        let blocks = u(at + 4)?;
        let channels = u(at + 8)?;
        let has_value = u(at + 12)?;
        let hidden = u(at + 16)?;
        if !(1..=64).contains(&planes)
            || blocks > 64
            || !(1..=512).contains(&channels)
            || has_value > 1
            || hidden > 1024
            || (has_value == 1) != (hidden > 0)
        {
            return Err(bad(format!(
                "shape out of range: planes {planes}, blocks {blocks}, channels {channels}, value {has_value} x {hidden}"
            )));
        }
        let shape = Shape {
            planes,
            blocks,
            channels,
            value_hidden: hidden,
        };
        let body = &b[at + 24..];
        if body.len() != 4 * shape.weights() {
            return Err(bad(format!(
                "{} bytes of weights, the shape needs {}",
                body.len(),
                4 * shape.weights()
            )));
        }
        let w: Vec<f32> = body
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Network::from_weights(header, shape, &w).map_err(|e| bad(e.to_string()))
    }

    /// Reads a weights file.
    ///
    /// # Errors
    /// [`NnError::Io`] when it cannot be read (or is over 1 GiB), and as
    /// [`Network::from_bytes`]; both name the file.
    pub fn load(path: &std::path::Path) -> Result<Network, NnError> {
        let bytes = crate::files::read_capped_with(path, 1 << 30)
            .map_err(|e| NnError::Io(format!("{}: {e}", path.display())))?;
        Network::from_bytes(&bytes).map_err(|e| NnError::Format(format!("{}: {e}", path.display())))
    }

    /// Multiply-adds of one evaluation on a `size` board.
    pub fn flops(&self, size: usize) -> f64 {
        let a = (size * size) as f64;
        let c = self.shape.channels as f64;
        let p = self.shape.planes as f64;
        2.0 * a * 9.0 * c * (p + 2.0 * self.shape.blocks as f64 * c)
    }
}

/// Buffers to evaluate a [`Network`] on one board size, up to a batch.
#[derive(Clone, Debug)]
pub struct Evaluator {
    size: usize,
    max_batch: usize,
    x: Vec<f32>,
    t: Vec<f32>,
    y: Vec<f32>,
    col: Vec<f32>,
    hidden: Vec<f32>,
}

impl Evaluator {
    /// Buffers for `net` on a `size` board with batches up to `max_batch`
    /// (at least 1).
    pub fn new(net: &Network, size: usize, max_batch: usize) -> Evaluator {
        let max_batch = max_batch.max(1);
        let n = max_batch * size * size;
        let c = net.shape.channels;
        let wide = c.max(net.shape.planes);
        // `x` and `y` swap after each block, so both fit the input planes.
        Evaluator {
            size,
            max_batch,
            x: vec![0.0; wide * n],
            t: vec![0.0; c * n],
            y: vec![0.0; wide * n],
            col: vec![0.0; 9 * wide * n],
            hidden: vec![0.0; net.shape.value_hidden.max(1)],
        }
    }

    /// The board size.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The largest batch.
    pub fn max_batch(&self) -> usize {
        self.max_batch
    }

    /// Evaluates a batch: `input` holds `batch` positions' planes one after
    /// the other (`planes * size * size` each); `policy` gets each
    /// position's `size * size + 1` logits (the points row by row, then
    /// the pass); `value`, when given, each position's value (0 without a
    /// value head).
    ///
    /// # Panics
    /// If `batch` is 0 or over the largest batch, or a slice is shorter
    /// than the batch needs.
    pub fn evaluate(
        &mut self,
        net: &Network,
        input: &[f32],
        batch: usize,
        policy: &mut [f32],
        value: Option<&mut [f32]>,
    ) {
        assert!(batch >= 1 && batch <= self.max_batch, "batch {batch}");
        let area = self.size * self.size;
        let n = batch * area;
        let c = net.shape.channels;
        let planes = net.shape.planes;
        // Input planes, position-major, to channel-major [planes][batch * area].
        let y = &mut self.y[..planes.max(c) * n];
        for b in 0..batch {
            for p in 0..planes {
                let src = &input[(b * planes + p) * area..(b * planes + p + 1) * area];
                y[p * n + b * area..p * n + (b + 1) * area].copy_from_slice(src);
            }
        }
        conv3x3(
            &net.input,
            planes,
            c,
            &self.y,
            &mut self.x,
            None,
            &mut self.col,
            self.size,
            batch,
        );
        for (c1, c2) in &net.blocks {
            conv3x3(
                c1,
                c,
                c,
                &self.x,
                &mut self.t,
                None,
                &mut self.col,
                self.size,
                batch,
            );
            conv3x3(
                c2,
                c,
                c,
                &self.t,
                &mut self.y,
                Some(&self.x),
                &mut self.col,
                self.size,
                batch,
            );
            std::mem::swap(&mut self.x, &mut self.y);
        }
        let x = &self.x[..c * n];
        for b in 0..batch {
            let out = &mut policy[b * (area + 1)..(b + 1) * (area + 1)];
            for (p, o) in out[..area].iter_mut().enumerate() {
                let mut h = [net.policy_b1[0], net.policy_b1[1]];
                for (k, hk) in h.iter_mut().enumerate() {
                    let w = &net.policy_w1[k * c..(k + 1) * c];
                    for (ch, &wc) in w.iter().enumerate() {
                        *hk += wc * x[ch * n + b * area + p];
                    }
                }
                *o = net.policy_b2
                    + net.policy_w2[0] * h[0].max(0.0)
                    + net.policy_w2[1] * h[1].max(0.0);
            }
            // The tower's mean over the points, in `t`'s first `c`.
            let mean = &mut self.t[..c];
            for (ch, m) in mean.iter_mut().enumerate() {
                let s: f32 = x[ch * n + b * area..ch * n + (b + 1) * area].iter().sum();
                *m = s / area as f32;
            }
            out[area] = net.pass_b + dot(&net.pass_w, mean);
        }
        if let Some(v) = value {
            for (b, vb) in v[..batch].iter_mut().enumerate() {
                let hsize = net.shape.value_hidden;
                if hsize == 0 {
                    *vb = 0.0;
                    continue;
                }
                let mean = &mut self.t[..c];
                for (ch, m) in mean.iter_mut().enumerate() {
                    let s: f32 = x[ch * n + b * area..ch * n + (b + 1) * area].iter().sum();
                    *m = s / area as f32;
                }
                for (j, h) in self.hidden[..hsize].iter_mut().enumerate() {
                    *h = (net.value_b1[j] + dot(&net.value_w1[j * c..(j + 1) * c], mean)).max(0.0);
                }
                *vb = (net.value_b2 + dot(&net.value_w2, &self.hidden[..hsize])).tanh();
            }
        }
    }
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// `out = relu(conv(input) + bias [+ residual])`, channel-major buffers
/// `[channels][batch * size * size]`.
#[allow(clippy::too_many_arguments)]
fn conv3x3(
    conv: &Conv,
    cin: usize,
    cout: usize,
    input: &[f32],
    out: &mut [f32],
    residual: Option<&[f32]>,
    col: &mut [f32],
    size: usize,
    batch: usize,
) {
    let area = size * size;
    let n = batch * area;
    let col = &mut col[..cin * 9 * n];
    // im2col: row (ci * 9 + ky * 3 + kx), column (b * area + y * size + x).
    for ci in 0..cin {
        for ky in 0..3 {
            for kx in 0..3 {
                let row = &mut col[(ci * 9 + ky * 3 + kx) * n..][..n];
                for b in 0..batch {
                    let src = &input[ci * n + b * area..][..area];
                    let dst = &mut row[b * area..][..area];
                    for y in 0..size {
                        let sy = y as isize + ky as isize - 1;
                        let d = &mut dst[y * size..][..size];
                        if sy < 0 || sy >= size as isize {
                            d.fill(0.0);
                            continue;
                        }
                        let s = &src[sy as usize * size..][..size];
                        match kx {
                            0 => {
                                d[0] = 0.0;
                                d[1..].copy_from_slice(&s[..size - 1]);
                            }
                            1 => d.copy_from_slice(s),
                            _ => {
                                d[..size - 1].copy_from_slice(&s[1..]);
                                d[size - 1] = 0.0;
                            }
                        }
                    }
                }
            }
        }
    }
    let out = &mut out[..cout * n];
    for (o, row) in out.chunks_exact_mut(n).enumerate() {
        match residual {
            Some(r) => {
                for (v, &rv) in row.iter_mut().zip(&r[o * n..(o + 1) * n]) {
                    *v = rv + conv.b[o];
                }
            }
            None => row.fill(conv.b[o]),
        }
    }
    let k = cin * 9;
    // SAFETY: the slices hold m*k, k*n and m*n elements with the strides
    // given (row-major), as sgemm reads and writes them.
    unsafe {
        matrixmultiply::sgemm(
            cout,
            k,
            n,
            1.0,
            conv.w.as_ptr(),
            k as isize,
            1,
            col.as_ptr(),
            n as isize,
            1,
            1.0,
            out.as_mut_ptr(),
            n as isize,
            1,
        );
    }
    for v in out.iter_mut() {
        *v = v.max(0.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plain, slow evaluation straight from the definition, to check the
    /// im2col and GEMM path against.
    fn reference(net: &Network, input: &[f32], size: usize) -> (Vec<f32>, f32) {
        let area = size * size;
        let conv = |cv: &Conv, cin: usize, x: &[f32]| -> Vec<f32> {
            let cout = cv.b.len();
            let mut out = vec![0.0f32; cout * area];
            for o in 0..cout {
                for y in 0..size {
                    for xx in 0..size {
                        let mut s = cv.b[o];
                        for i in 0..cin {
                            for ky in 0..3 {
                                for kx in 0..3 {
                                    let sy = y as isize + ky as isize - 1;
                                    let sx = xx as isize + kx as isize - 1;
                                    if sy < 0
                                        || sx < 0
                                        || sy >= size as isize
                                        || sx >= size as isize
                                    {
                                        continue;
                                    }
                                    s += cv.w[((o * cin + i) * 3 + ky) * 3 + kx]
                                        * x[i * area + sy as usize * size + sx as usize];
                                }
                            }
                        }
                        out[o * area + y * size + xx] = s;
                    }
                }
            }
            out
        };
        let relu = |v: Vec<f32>| v.into_iter().map(|x| x.max(0.0)).collect::<Vec<_>>();
        let c = net.shape.channels;
        let mut x = relu(conv(&net.input, net.shape.planes, input));
        for (a, b) in &net.blocks {
            let t = relu(conv(a, c, &x));
            let u = conv(b, c, &t);
            x = x.iter().zip(&u).map(|(p, q)| (p + q).max(0.0)).collect();
        }
        let mut logits = vec![0.0; area + 1];
        for p in 0..area {
            let mut h = [0.0f32; 2];
            for (k, hk) in h.iter_mut().enumerate() {
                *hk = net.policy_b1[k];
                for ch in 0..c {
                    *hk += net.policy_w1[k * c + ch] * x[ch * area + p];
                }
            }
            logits[p] =
                net.policy_b2 + net.policy_w2[0] * h[0].max(0.0) + net.policy_w2[1] * h[1].max(0.0);
        }
        let mean: Vec<f32> = (0..c)
            .map(|ch| x[ch * area..(ch + 1) * area].iter().sum::<f32>() / area as f32)
            .collect();
        logits[area] = net.pass_b + dot(&net.pass_w, &mean);
        let h: Vec<f32> = (0..net.shape.value_hidden)
            .map(|j| (net.value_b1[j] + dot(&net.value_w1[j * c..(j + 1) * c], &mean)).max(0.0))
            .collect();
        let v = (net.value_b2 + dot(&net.value_w2, &h)).tanh();
        (logits, v)
    }

    fn input(planes: usize, area: usize, seed: u64) -> Vec<f32> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        (0..planes * area)
            .map(|_| (rng.next_u64() % 3) as f32 / 2.0)
            .collect()
    }

    #[test]
    fn gemm_path_matches_the_definition_in_batches() {
        let shape = Shape {
            planes: 5,
            blocks: 2,
            channels: 6,
            value_hidden: 3,
        };
        let net = Network::random(shape, 7);
        for size in [2, 5, 9] {
            let area = size * size;
            let mut ev = Evaluator::new(&net, size, 3);
            let inputs: Vec<f32> = (0..3).flat_map(|s| input(5, area, s)).collect();
            let mut policy = vec![0.0; 3 * (area + 1)];
            let mut value = vec![0.0; 3];
            ev.evaluate(&net, &inputs, 3, &mut policy, Some(&mut value));
            for b in 0..3 {
                let (l, v) = reference(&net, &inputs[b * 5 * area..(b + 1) * 5 * area], size);
                for (i, (&x, &y)) in policy[b * (area + 1)..(b + 1) * (area + 1)]
                    .iter()
                    .zip(&l)
                    .enumerate()
                {
                    assert!(
                        (x - y).abs() < 1e-4,
                        "size {size} batch {b} logit {i}: {x} vs {y}"
                    );
                }
                assert!((value[b] - v).abs() < 1e-5, "{} vs {v}", value[b]);
            }
            // Batch of one gives the first position's logits again.
            let mut one = vec![0.0; area + 1];
            ev.evaluate(&net, &inputs[..5 * area], 1, &mut one, None);
            for (x, y) in one.iter().zip(&policy[..area + 1]) {
                assert!((x - y).abs() < 1e-5);
            }
        }
    }

    #[test]
    fn weights_round_trip_and_bad_files_are_errors() {
        let shape = Shape {
            planes: 4,
            blocks: 1,
            channels: 3,
            value_hidden: 0,
        };
        let net = Network::random(shape, 1);
        let bytes = net.to_bytes();
        let back = Network::from_bytes(&bytes).expect("read back");
        assert_eq!(back.shape, shape);
        assert_eq!(back.weights(), net.weights());
        assert_eq!(back.header, net.header);
        assert!(Network::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        let mut longer = bytes.clone();
        longer.extend_from_slice(&[0; 4]);
        assert!(Network::from_bytes(&longer).is_err());
        let mut magic = bytes.clone();
        magic[0] = b'x';
        assert!(Network::from_bytes(&magic).is_err());
        assert!(Network::from_bytes(&bytes[..10]).is_err());
        // A NaN weight.
        let mut nan = bytes.clone();
        let at = nan.len() - 4;
        nan[at..].copy_from_slice(&f32::NAN.to_le_bytes());
        assert!(Network::from_bytes(&nan).is_err());
        // A huge header length.
        let mut hl = bytes;
        hl[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(Network::from_bytes(&hl).is_err());
    }
}
