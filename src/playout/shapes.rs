//! The 3x3 shapes of the playout policy and the hand priors: the classic
//! hane, cut and edge shapes ([`SHAPES`]), matched by a bit per 3x3 code
//! of the board's cells ([`code3x3`], [`is_shape`]), in all eight
//! orientations and with the colours swapped.

use crate::board::Board;
use crate::point::{Point, STRIDE};
use std::sync::OnceLock;

/// The 3x3 shapes, centre = the candidate point, in the notation: `X` a
/// stone of one colour, `O` of the other, `.` empty, `#` off the board,
/// `?` anything, `x` anything but `X` on the board, `o` anything but `O` on
/// the board. Each shape counts in all eight orientations and with the
/// colours swapped, so it does not matter whose move it is. These are the
/// classic hane, cut and edge shapes described for MoGo (Gelly, Wang,
/// Munos, Teytaud 2006, "Modification of UCT with patterns in Monte-Carlo
/// Go", figure 2), written out here in this notation.
pub const SHAPES: &[[&str; 3]] = &[
    // Hane that encloses a stone between two.
    ["XOX", "...", "???"],
    // Hane that does not cut.
    ["XO.", "...", "?.?"],
    // Turn (magari) around the head of a stone.
    ["XO?", "X..", "x.?"],
    // Diagonal attachment under an isolated stone.
    [".O.", "X..", "..."],
    // Cut with nothing protecting it.
    ["XO?", "O.o", "?o?"],
    // Cut after a peep.
    ["XO?", "O.X", "???"],
    // Pushing through between two stones.
    ["?X?", "O.O", "ooo"],
    // Cutting the knight's move.
    ["OX?", "o.O", "???"],
    // Edge: chasing along the first line.
    ["X.?", "O.?", "##?"],
    // Edge: blocking the cut on the side.
    ["OX?", "X.O", "###"],
    // Edge: blocking the connection underneath.
    ["?X?", "x.O", "###"],
    // Edge: descending (sagari).
    ["?XO", "x.x", "###"],
    // Edge: cutting on the side.
    ["?OX", "X.O", "###"],
];

/// Offsets of the eight neighbours, row by row, in the order of the bits of
/// a 3x3 code (two bits each, first neighbour in the highest bits).
pub(crate) const OFFSETS: [(i32, i32); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// The 3x3 code of the point `p`: the eight neighbours' cell codes
/// ([`Board::cell_code`]), two bits each.
#[inline]
pub fn code3x3(b: &Board, p: Point) -> u16 {
    let i = p.index() as i32;
    let mut code = 0u16;
    for (dx, dy) in OFFSETS {
        let q = Point::from_index((i + dy * STRIDE as i32 + dx) as usize);
        code = (code << 2) | b.cell_code(q) as u16;
    }
    code
}

/// A bit per 3x3 code: set when the code matches one of [`SHAPES`].
struct ShapeTable(Box<[u64]>);

impl ShapeTable {
    fn build() -> ShapeTable {
        let mut bits = vec![0u64; 65536 / 64].into_boxed_slice();
        for shape in SHAPES {
            let grid: Vec<u8> = shape.iter().flat_map(|row| row.bytes()).collect();
            for sym in 0..8 {
                for swap in [false, true] {
                    // The cell of the shape seen at neighbour k under this symmetry.
                    let mut cells = [b'?'; 8];
                    for (k, &(dx, dy)) in OFFSETS.iter().enumerate() {
                        let (sx, sy) = transform(dx, dy, sym);
                        let ch = grid[((sy + 1) * 3 + sx + 1) as usize];
                        cells[k] = if swap { swap_case(ch) } else { ch };
                    }
                    expand(&cells, 0, 0, &mut bits);
                }
            }
        }
        ShapeTable(bits)
    }

    #[inline]
    fn matches(&self, code: u16) -> bool {
        self.0[code as usize / 64] >> (code % 64) & 1 == 1
    }
}

/// One of the eight symmetries of the square applied to an offset.
fn transform(dx: i32, dy: i32, sym: u32) -> (i32, i32) {
    let (x, y) = if sym & 1 == 1 { (-dx, dy) } else { (dx, dy) };
    let (x, y) = if sym & 2 == 2 { (x, -y) } else { (x, y) };
    if sym & 4 == 4 {
        (y, x)
    } else {
        (x, y)
    }
}

fn swap_case(ch: u8) -> u8 {
    match ch {
        b'X' => b'O',
        b'O' => b'X',
        b'x' => b'o',
        b'o' => b'x',
        other => other,
    }
}

/// Sets the bit of every concrete code matching `cells` from neighbour `k`
/// on, with `code` holding the neighbours before it.
fn expand(cells: &[u8; 8], k: usize, code: u32, bits: &mut [u64]) {
    if k == 8 {
        bits[code as usize / 64] |= 1 << (code % 64);
        return;
    }
    let allowed: &[u32] = match cells[k] {
        b'.' => &[0],
        b'X' => &[1],
        b'O' => &[2],
        b'#' => &[3],
        b'x' => &[0, 2],
        b'o' => &[0, 1],
        _ => &[0, 1, 2, 3],
    };
    for &v in allowed {
        expand(cells, k + 1, (code << 2) | v, bits);
    }
}

fn shapes() -> &'static ShapeTable {
    static TABLE: OnceLock<ShapeTable> = OnceLock::new();
    TABLE.get_or_init(ShapeTable::build)
}

/// Whether the 3x3 neighbourhood of the empty point `p` is one of the
/// [`SHAPES`].
#[inline]
pub fn is_shape(b: &Board, p: Point) -> bool {
    shapes().matches(code3x3(b, p))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// White D5 between black C5 and E5 on 7x7.
    const HANE: &str = "
            . . . . . . .
            . . . . . . .
            . . X O X . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .";

    fn at(b: &Board, v: &str) -> Point {
        b.test_point(v)
    }

    #[test]
    fn hane_shape_matches_in_every_orientation() {
        // White D5 between black C5 and E5: D4 is the enclosing hane.
        let b = Board::from_diagram(HANE).unwrap();
        assert!(is_shape(&b, at(&b, "D4")));
        assert!(!is_shape(&b, at(&b, "A1")));
        // Rotated a quarter turn and colours swapped.
        let r = Board::from_diagram(
            "
            . . . . . . .
            . . . O . . .
            . . . X . . .
            . . . O . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .",
        )
        .unwrap();
        assert!(is_shape(&r, at(&r, "C5")));
        assert!(is_shape(&r, at(&r, "E5")));
    }
}
