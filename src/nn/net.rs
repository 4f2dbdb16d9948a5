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
//! batch, so that an evaluation allocates nothing. A 3x3 convolution
//! runs in Winograd's minimal filtering form F(4x4, 3x3) (Lavin and Gray,
//! "Fast Algorithms for Convolutional Neural Networks", 2015): the board,
//! padded to a multiple of 4, is cut into 4x4 output tiles, each read
//! through its 6x6 input tile; the tiles and the kernels (once, when the
//! network is read) are transformed so that the convolution becomes 36
//! single-precision matrix products, one per point of the 6x6 domain,
//! over all the tiles of the batch, and a transform back. It does the
//! work of a direct convolution with about a quarter of the
//! multiplications, and its results differ from it by rounding only.
//! The activations are point-major (the channels of a point side by
//! side), so that the transforms run over the channels in vector
//! registers; the products read their operands in place (`gemm`). The
//! whole convolution is compiled twice, plain and for AVX2 with FMA, and
//! the second runs where the CPU has them (checked once per
//! [`Evaluator`]).

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

/// A 3x3 convolution's weights, `[out][in][3][3]`, and bias, with the
/// weights in the Winograd domain ([`winograd_weights`]).
#[derive(Clone, Debug)]
struct Conv {
    w: Vec<f32>,
    b: Vec<f32>,
    /// `G g G^T` of each kernel `g`, `[36][in][out]`.
    u: Vec<f32>,
}

impl Conv {
    fn new(w: Vec<f32>, b: Vec<f32>, cin: usize) -> Conv {
        let u = winograd_weights(&w, cin, b.len());
        Conv { w, b, u }
    }
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
        let conv = |i: usize, o: usize, t: &mut Take| {
            let w = t.vec(o * i * 9);
            Conv::new(w, t.vec(o), i)
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

    /// Floating-point operations (two a multiply-add) of one evaluation on
    /// a `size` board with direct convolutions: the work the rates of
    /// `bench --nn` are quoted in (the Winograd path does fewer).
    pub fn flops(&self, size: usize) -> f64 {
        let a = (size * size) as f64;
        let c = self.shape.channels as f64;
        let p = self.shape.planes as f64;
        2.0 * a * 9.0 * c * (p + 2.0 * self.shape.blocks as f64 * c)
    }
}

/// Buffers to evaluate a [`Network`] on one board size, up to a batch.
/// The activations are point-major: `[batch * size * size][channels]`.
#[derive(Clone, Debug)]
pub struct Evaluator {
    size: usize,
    max_batch: usize,
    x: Vec<f32>,
    t: Vec<f32>,
    y: Vec<f32>,
    wino: WinoBuffers,
    hidden: Vec<f32>,
    /// Run the convolutions' AVX2 and FMA code (where the CPU has them).
    simd: bool,
}

/// Whether this CPU runs [`conv3x3`]'s AVX2 and FMA code.
fn simd_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The buffers of one Winograd convolution.
#[derive(Clone, Debug)]
struct WinoBuffers {
    /// Input tiles in the Winograd domain, `[36][tiles][in]`.
    v: Vec<f32>,
    /// Their products with the weights, `[36][tiles][out]`.
    m: Vec<f32>,
    /// One tile half transformed, `[6][6][channels]`.
    half: Vec<f32>,
    /// One row of a tile's outputs, `[4][out]`.
    row: Vec<f32>,
    /// Zeros: the padding's channels.
    zeros: Vec<f32>,
}

impl Evaluator {
    /// Buffers for `net` on a `size` board with batches up to `max_batch`
    /// (at least 1).
    pub fn new(net: &Network, size: usize, max_batch: usize) -> Evaluator {
        let max_batch = max_batch.max(1);
        let n = max_batch * size * size;
        let c = net.shape.channels;
        let wide = c.max(net.shape.planes);
        let tiles = max_batch * size.div_ceil(4).pow(2);
        // `x` and `y` swap after each block, so both fit the input planes.
        Evaluator {
            size,
            max_batch,
            x: vec![0.0; wide * n],
            t: vec![0.0; c * n],
            y: vec![0.0; wide * n],
            wino: WinoBuffers {
                v: vec![0.0; 36 * wide * tiles],
                m: vec![0.0; 36 * c * tiles],
                half: vec![0.0; 36 * wide],
                row: vec![0.0; 4 * c],
                zeros: vec![0.0; wide],
            },
            hidden: vec![0.0; net.shape.value_hidden.max(1)],
            simd: simd_available(),
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
        // Input planes, plane-major per position, to point-major
        // [batch * area][planes].
        let y = &mut self.y[..planes * n];
        for b in 0..batch {
            for p in 0..planes {
                let src = &input[(b * planes + p) * area..(b * planes + p + 1) * area];
                for (i, &s) in src.iter().enumerate() {
                    y[(b * area + i) * planes + p] = s;
                }
            }
        }
        let (w, simd) = (&mut self.wino, self.simd);
        let base = ConvJob {
            conv: &net.input,
            cin: planes,
            cout: c,
            input: &[],
            residual: None,
            size: self.size,
            batch,
        };
        let first = ConvJob {
            input: &self.y,
            ..base
        };
        conv3x3(&first, &mut self.x, w, simd);
        for (c1, c2) in &net.blocks {
            let job1 = ConvJob {
                conv: c1,
                cin: c,
                input: &self.x,
                ..base
            };
            conv3x3(&job1, &mut self.t, w, simd);
            let job2 = ConvJob {
                conv: c2,
                cin: c,
                input: &self.t,
                residual: Some(&self.x),
                ..base
            };
            conv3x3(&job2, &mut self.y, w, simd);
            std::mem::swap(&mut self.x, &mut self.y);
        }
        let x = &self.x[..c * n];
        let (w1a, w1b) = net.policy_w1.split_at(c);
        for b in 0..batch {
            let out = &mut policy[b * (area + 1)..(b + 1) * (area + 1)];
            let pos = &x[b * area * c..(b + 1) * area * c];
            for (o, xp) in out[..area].iter_mut().zip(pos.chunks_exact(c)) {
                let h0 = net.policy_b1[0] + dot(w1a, xp);
                let h1 = net.policy_b1[1] + dot(w1b, xp);
                *o =
                    net.policy_b2 + net.policy_w2[0] * h0.max(0.0) + net.policy_w2[1] * h1.max(0.0);
            }
            // The tower's mean over the points, in `t`'s first `c`.
            let mean = &mut self.t[..c];
            tower_mean(pos, mean);
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
                tower_mean(&x[b * area * c..(b + 1) * area * c], mean);
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

/// The mean over the points of one position's point-major activations
/// (`mean.len()` channels).
fn tower_mean(pos: &[f32], mean: &mut [f32]) {
    let c = mean.len();
    mean.fill(0.0);
    for xp in pos.chunks_exact(c) {
        for (m, &v) in mean.iter_mut().zip(xp) {
            *m += v;
        }
    }
    let points = (pos.len() / c) as f32;
    for m in mean.iter_mut() {
        *m /= points;
    }
}

/// `G`, the kernel transform of F(4x4, 3x3).
const WINO_G: [[f64; 3]; 6] = [
    [1.0 / 4.0, 0.0, 0.0],
    [-1.0 / 6.0, -1.0 / 6.0, -1.0 / 6.0],
    [-1.0 / 6.0, 1.0 / 6.0, -1.0 / 6.0],
    [1.0 / 24.0, 1.0 / 12.0, 1.0 / 6.0],
    [1.0 / 24.0, -1.0 / 12.0, 1.0 / 6.0],
    [0.0, 0.0, 1.0],
];

/// The kernels `[out][in][3][3]` in the Winograd domain: `G g G^T` of
/// each, laid out `[36][in][out]` (one matrix product's right operand per
/// point of the 6x6 domain).
fn winograd_weights(w: &[f32], cin: usize, cout: usize) -> Vec<f32> {
    let mut u = vec![0.0f32; 36 * cout * cin];
    for o in 0..cout {
        for i in 0..cin {
            let g = &w[(o * cin + i) * 9..][..9];
            // t = G g (6x3), then t G^T (6x6), in f64.
            let mut t = [[0.0f64; 3]; 6];
            for (r, tr) in t.iter_mut().enumerate() {
                for (c, tc) in tr.iter_mut().enumerate() {
                    *tc = (0..3).map(|k| WINO_G[r][k] * f64::from(g[k * 3 + c])).sum();
                }
            }
            for r in 0..6 {
                for c in 0..6 {
                    let v: f64 = (0..3).map(|k| t[r][k] * WINO_G[c][k]).sum();
                    u[((r * 6 + c) * cin + i) * cout + o] = v as f32;
                }
            }
        }
    }
    u
}

/// `B^T d` over the channels: `d` six points of a tile's column (or
/// row), `o` the six transformed ones. (Each output a parameter of its
/// own, so that the compiler knows they overlap nothing and vectorizes.)
#[inline(always)]
fn wino_bt(
    d: [&[f32]; 6],
    o0: &mut [f32],
    o1: &mut [f32],
    o2: &mut [f32],
    o3: &mut [f32],
    o4: &mut [f32],
    o5: &mut [f32],
) {
    let n = o0.len();
    let (o1, o2, o3, o4, o5) = (
        &mut o1[..n],
        &mut o2[..n],
        &mut o3[..n],
        &mut o4[..n],
        &mut o5[..n],
    );
    let [d0, d1, d2, d3, d4, d5] = d.map(|x| &x[..n]);
    for i in 0..n {
        let (a0, a1, a2, a3, a4, a5) = (d0[i], d1[i], d2[i], d3[i], d4[i], d5[i]);
        o0[i] = 4.0 * a0 - 5.0 * a2 + a4;
        o1[i] = -4.0 * (a1 + a2) + a3 + a4;
        o2[i] = 4.0 * (a1 - a2) - a3 + a4;
        o3[i] = 2.0 * (a3 - a1) - a2 + a4;
        o4[i] = 2.0 * (a1 - a3) - a2 + a4;
        o5[i] = 4.0 * a1 - 5.0 * a3 + a5;
    }
}

/// `A^T m` over the channels: `m` six points of a product tile's column
/// (or row), `o` the four points back.
#[inline(always)]
fn wino_at(m: [&[f32]; 6], o0: &mut [f32], o1: &mut [f32], o2: &mut [f32], o3: &mut [f32]) {
    let n = o0.len();
    let (o1, o2, o3) = (&mut o1[..n], &mut o2[..n], &mut o3[..n]);
    let [m0, m1, m2, m3, m4, m5] = m.map(|x| &x[..n]);
    for i in 0..n {
        let (a, b) = (m1[i] + m2[i], m1[i] - m2[i]);
        let (c, d) = (m3[i] + m4[i], m3[i] - m4[i]);
        o0[i] = m0[i] + a + c;
        o1[i] = b + 2.0 * d;
        o2[i] = a + 4.0 * c;
        o3[i] = b + 8.0 * d + m5[i];
    }
}

/// `c = a b` for row-major `a` (`rows x k`), `b` (`k x n`) and `c`
/// (`rows x n`). The matrices of a convolution on one board are small (on
/// 19x19 and a batch of one, 25 x 64 times 64 x 64), so the products read
/// them in place: a general product that first copies both operands into
/// its own layout spends about as long copying as multiplying there.
#[inline(always)]
fn gemm<const FMA: bool>(rows: usize, k: usize, n: usize, a: &[f32], b: &[f32], c: &mut [f32]) {
    #[cfg(target_arch = "x86_64")]
    if FMA {
        // SAFETY: `FMA` is only set in code that runs where the CPU has
        // AVX2 and FMA ([`conv3x3`]).
        unsafe { gemm_avx2(rows, k, n, a, b, c) };
        return;
    }
    gemm_rect(0..rows, 0..n, k, n, a, b, c);
}

/// The part `rows x cols` of [`gemm`]'s `c`, one element at a time.
#[inline(always)]
fn gemm_rect(
    rows: std::ops::Range<usize>,
    cols: std::ops::Range<usize>,
    k: usize,
    n: usize,
    a: &[f32],
    b: &[f32],
    c: &mut [f32],
) {
    for i in rows {
        let crow = &mut c[i * n..][..n];
        crow[cols.clone()].fill(0.0);
        for (p, &x) in a[i * k..][..k].iter().enumerate() {
            for (s, &y) in crow[cols.clone()]
                .iter_mut()
                .zip(&b[p * n + cols.start..p * n + cols.end])
            {
                *s += x * y;
            }
        }
    }
}

/// [`gemm`] with AVX2 and FMA: blocks of 6 rows and 16 columns (12
/// accumulators in registers), the rest by [`gemm_rect`].
///
/// # Safety
/// The CPU must have AVX2 and FMA.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn gemm_avx2(rows: usize, k: usize, n: usize, a: &[f32], b: &[f32], c: &mut [f32]) {
    use std::arch::x86_64::{
        _mm256_fmadd_ps, _mm256_loadu_ps, _mm256_set1_ps, _mm256_setzero_ps, _mm256_storeu_ps,
    };
    const R: usize = 6;
    assert!(a.len() >= rows * k && b.len() >= k * n && c.len() >= rows * n);
    let full_rows = rows / R * R;
    let full_cols = n / 16 * 16;
    let (ap, bp, cp) = (a.as_ptr(), b.as_ptr(), c.as_mut_ptr());
    for j0 in (0..full_cols).step_by(16) {
        for i0 in (0..full_rows).step_by(R) {
            let mut acc = [[_mm256_setzero_ps(); 2]; R];
            for p in 0..k {
                // SAFETY: p < k, j0 + 16 <= n and i0 + R <= rows: in the
                // bounds asserted above.
                unsafe {
                    let b0 = _mm256_loadu_ps(bp.add(p * n + j0));
                    let b1 = _mm256_loadu_ps(bp.add(p * n + j0 + 8));
                    for (r, accr) in acc.iter_mut().enumerate() {
                        let x = _mm256_set1_ps(*ap.add((i0 + r) * k + p));
                        accr[0] = _mm256_fmadd_ps(x, b0, accr[0]);
                        accr[1] = _mm256_fmadd_ps(x, b1, accr[1]);
                    }
                }
            }
            for (r, accr) in acc.iter().enumerate() {
                // SAFETY: as above, in c's bounds.
                unsafe {
                    _mm256_storeu_ps(cp.add((i0 + r) * n + j0), accr[0]);
                    _mm256_storeu_ps(cp.add((i0 + r) * n + j0 + 8), accr[1]);
                }
            }
        }
    }
    if full_rows < rows {
        gemm_rect(full_rows..rows, 0..n, k, n, a, b, c);
    }
    if full_cols < n {
        gemm_rect(0..full_rows, full_cols..n, k, n, a, b, c);
    }
}

/// `N` disjoint `len`-long slices of `buf`, at offsets `at(0) < at(1) <
/// ...` (each at least the previous one's end).
fn split_mut<const N: usize>(
    buf: &mut [f32],
    len: usize,
    at: impl Fn(usize) -> usize,
) -> [&mut [f32]; N] {
    let mut rest = buf;
    let mut base = 0;
    std::array::from_fn(|i| {
        let (_, tail) = std::mem::take(&mut rest).split_at_mut(at(i) - base);
        let (s, tail) = tail.split_at_mut(len);
        rest = tail;
        base = at(i) + len;
        s
    })
}

/// One convolution's operands: `out = relu(conv(input) + bias [+
/// residual])` over point-major buffers `[batch * size * size][channels]`.
#[derive(Clone, Copy)]
struct ConvJob<'a> {
    conv: &'a Conv,
    cin: usize,
    cout: usize,
    input: &'a [f32],
    residual: Option<&'a [f32]>,
    size: usize,
    batch: usize,
}

/// Runs `job` into `out` in the Winograd form of the module docs: with
/// `simd` (only where [`simd_available`]) the code compiled for AVX2 and
/// FMA, otherwise the plain code.
fn conv3x3(job: &ConvJob, out: &mut [f32], w: &mut WinoBuffers, simd: bool) {
    #[cfg(target_arch = "x86_64")]
    if simd {
        assert!(simd_available(), "AVX2 and FMA code on a CPU without them");
        // SAFETY: the CPU has AVX2 and FMA, checked just above.
        unsafe { conv3x3_avx2(job, out, w) };
        return;
    }
    let _ = simd;
    conv3x3_body::<false>(job, out, w);
}

/// [`conv3x3_body`] compiled for AVX2 and FMA.
///
/// # Safety
/// The CPU must have AVX2 and FMA.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn conv3x3_avx2(job: &ConvJob, out: &mut [f32], w: &mut WinoBuffers) {
    conv3x3_body::<true>(job, out, w);
}

/// The convolution of [`conv3x3`]; `FMA`: fuse the products' multiply-adds
/// (only where the CPU has FMA: elsewhere a fused multiply-add is a slow
/// library call).
#[inline(always)]
fn conv3x3_body<const FMA: bool>(job: &ConvJob, out: &mut [f32], w: &mut WinoBuffers) {
    let ConvJob {
        conv,
        cin,
        cout,
        input,
        residual,
        size,
        batch,
    } = *job;
    let WinoBuffers {
        v,
        m,
        half,
        row,
        zeros,
    } = w;
    let area = size * size;
    let side = size.div_ceil(4);
    let per_board = side * side;
    let tiles = batch * per_board;
    let v = &mut v[..36 * tiles * cin];
    let m = &mut m[..36 * tiles * cout];
    let zeros = &zeros[..cin];
    // The channels at (y, x) of board b, zeros off the board.
    let at = |b: usize, y: isize, x: isize| -> &[f32] {
        if y < 0 || x < 0 || y >= size as isize || x >= size as isize {
            zeros
        } else {
            &input[(b * area + y as usize * size + x as usize) * cin..][..cin]
        }
    };
    // Input transform: tile t to v[k][t], k = 6 r + c.
    for b in 0..batch {
        for ty in 0..side {
            for tx in 0..side {
                let t = b * per_board + ty * side + tx;
                let (y0, x0) = (4 * ty as isize - 1, 4 * tx as isize - 1);
                // Columns: half[c][r] = (B^T d)[r][c].
                for c in 0..6 {
                    let d: [&[f32]; 6] =
                        std::array::from_fn(|r| at(b, y0 + r as isize, x0 + c as isize));
                    let [o0, o1, o2, o3, o4, o5] =
                        split_mut(&mut half[c * 6 * cin..], cin, |r| r * cin);
                    wino_bt(d, o0, o1, o2, o3, o4, o5);
                }
                // Rows: v[6 r + c][t] = ((B^T d) B)[r][c].
                for r in 0..6 {
                    let d: [&[f32]; 6] = std::array::from_fn(|c| &half[(c * 6 + r) * cin..][..cin]);
                    let [o0, o1, o2, o3, o4, o5] =
                        split_mut(v, cin, |c| ((r * 6 + c) * tiles + t) * cin);
                    wino_bt(d, o0, o1, o2, o3, o4, o5);
                }
            }
        }
    }
    // The 36 products: m[k] (tiles x cout) = v[k] (tiles x cin) u[k] (cin x cout).
    for k in 0..36 {
        gemm::<FMA>(
            tiles,
            cin,
            cout,
            &v[k * tiles * cin..][..tiles * cin],
            &conv.u[k * cin * cout..][..cin * cout],
            &mut m[k * tiles * cout..][..tiles * cout],
        );
    }
    // Output transform, bias, residual and ReLU.
    let row = &mut row[..4 * cout];
    for b in 0..batch {
        for ty in 0..side {
            for tx in 0..side {
                let t = b * per_board + ty * side + tx;
                // Columns: half[c][i] = (A^T m)[i][c].
                for c in 0..6 {
                    let d: [&[f32]; 6] =
                        std::array::from_fn(|r| &m[((r * 6 + c) * tiles + t) * cout..][..cout]);
                    let [o0, o1, o2, o3] = split_mut(&mut half[c * 4 * cout..], cout, |i| i * cout);
                    wino_at(d, o0, o1, o2, o3);
                }
                // Rows: ((A^T m) A)[i][j], the output at (4 ty + i, 4 tx + j).
                for i in 0..4 {
                    let y = 4 * ty + i;
                    if y >= size {
                        break;
                    }
                    let d: [&[f32]; 6] =
                        std::array::from_fn(|c| &half[(c * 4 + i) * cout..][..cout]);
                    let [o0, o1, o2, o3] = split_mut(row, cout, |j| j * cout);
                    wino_at(d, o0, o1, o2, o3);
                    for j in 0..4 {
                        let x = 4 * tx + j;
                        if x >= size {
                            break;
                        }
                        let p = (b * area + y * size + x) * cout;
                        let dst = &mut out[p..p + cout];
                        let src = &row[j * cout..(j + 1) * cout];
                        match residual {
                            Some(res) => {
                                let res = &res[p..p + cout];
                                for (((o, &s), &bias), &r) in
                                    dst.iter_mut().zip(src).zip(&conv.b).zip(res)
                                {
                                    *o = (s + bias + r).max(0.0);
                                }
                            }
                            None => {
                                for ((o, &s), &bias) in dst.iter_mut().zip(src).zip(&conv.b) {
                                    *o = (s + bias).max(0.0);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plain, slow evaluation straight from the definition, to check the
    /// Winograd path against.
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

    /// The Winograd path against the definition: every board size's
    /// padding, batches, and channel counts that fill the AVX2 code's
    /// blocks of 6 tiles and 16 channels and leave remainders of both;
    /// with the AVX2 code where the CPU has it and with the plain code.
    #[test]
    fn winograd_path_matches_the_definition_in_batches() {
        let small = Shape {
            planes: 5,
            blocks: 2,
            channels: 6,
            value_hidden: 3,
        };
        let wide = Shape {
            planes: 7,
            blocks: 1,
            channels: 40,
            value_hidden: 4,
        };
        let cases: [(Shape, &[usize]); 2] = [(small, &[2, 3, 4, 5, 9]), (wide, &[7, 13, 19])];
        let mut paths = vec![false];
        if simd_available() {
            paths.push(true);
        }
        for (shape, sizes) in cases {
            let net = Network::random(shape, 7);
            let pl = shape.planes;
            for &size in sizes {
                let area = size * size;
                let inputs: Vec<f32> = (0..3).flat_map(|s| input(pl, area, s)).collect();
                let refs: Vec<(Vec<f32>, f32)> = (0..3)
                    .map(|b| reference(&net, &inputs[b * pl * area..(b + 1) * pl * area], size))
                    .collect();
                for &simd in &paths {
                    let mut ev = Evaluator::new(&net, size, 3);
                    ev.simd = simd;
                    let mut policy = vec![0.0; 3 * (area + 1)];
                    let mut value = vec![0.0; 3];
                    ev.evaluate(&net, &inputs, 3, &mut policy, Some(&mut value));
                    for (b, (l, v)) in refs.iter().enumerate() {
                        let got = &policy[b * (area + 1)..(b + 1) * (area + 1)];
                        for (i, (&x, &y)) in got.iter().zip(l).enumerate() {
                            assert!(
                                (x - y).abs() < 1e-4 * (1.0 + y.abs()),
                                "size {size} simd {simd} batch {b} logit {i}: {x} vs {y}"
                            );
                        }
                        assert!((value[b] - v).abs() < 1e-4, "{} vs {v}", value[b]);
                    }
                    // Batch of one gives the first position's logits again.
                    let mut one = vec![0.0; area + 1];
                    ev.evaluate(&net, &inputs[..pl * area], 1, &mut one, None);
                    for (x, y) in one.iter().zip(&policy[..area + 1]) {
                        assert!((x - y).abs() < 1e-5);
                    }
                }
            }
        }
    }

    #[test]
    fn the_small_products_equal_the_definition() {
        // Shapes around the AVX2 blocks (6 rows, 16 columns), k of 1 too.
        for (rows, k, n) in [
            (1, 1, 1),
            (6, 3, 16),
            (7, 5, 17),
            (25, 64, 64),
            (13, 9, 40),
            (5, 2, 15),
        ] {
            let a: Vec<f32> = (0..rows * k)
                .map(|i| ((i * 7 % 11) as f32 - 5.0) / 4.0)
                .collect();
            let b: Vec<f32> = (0..k * n)
                .map(|i| ((i * 5 % 13) as f32 - 6.0) / 8.0)
                .collect();
            let want: Vec<f32> = (0..rows * n)
                .map(|e| (0..k).map(|p| a[(e / n) * k + p] * b[p * n + e % n]).sum())
                .collect();
            let mut c = vec![f32::NAN; rows * n];
            gemm::<false>(rows, k, n, &a, &b, &mut c);
            for (x, y) in c.iter().zip(&want) {
                assert!((x - y).abs() < 1e-4, "plain {rows}x{k}x{n}: {x} vs {y}");
            }
            #[cfg(target_arch = "x86_64")]
            if simd_available() {
                let mut c = vec![f32::NAN; rows * n];
                // SAFETY: the CPU has AVX2 and FMA, checked just above.
                unsafe { gemm_avx2(rows, k, n, &a, &b, &mut c) };
                for (x, y) in c.iter().zip(&want) {
                    assert!((x - y).abs() < 1e-4, "avx2 {rows}x{k}x{n}: {x} vs {y}");
                }
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
