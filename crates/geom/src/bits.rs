//! Iteration over the set bits of a square set.

macro_rules! bit_iterator {
    ($name:ident, $int:ty) => {
        #[doc = concat!("Iterates the indices of the set bits of a `", stringify!($int), "`, lowest first.")]
        #[derive(Clone, Copy, Debug)]
        pub struct $name(pub $int);

        impl Iterator for $name {
            type Item = u8;

            #[inline]
            fn next(&mut self) -> Option<u8> {
                if self.0 == 0 {
                    return None;
                }
                let i = self.0.trailing_zeros() as u8;
                self.0 &= self.0 - 1;
                Some(i)
            }

            #[inline]
            fn size_hint(&self) -> (usize, Option<usize>) {
                let n = self.0.count_ones() as usize;
                (n, Some(n))
            }
        }

        impl ExactSizeIterator for $name {}
    };
}

bit_iterator!(Bits128, u128);
bit_iterator!(Bits64, u64);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iterates_high_bits_of_u128() {
        let v: Vec<u8> = Bits128((1u128 << 127) | (1 << 64) | 1).collect();
        assert_eq!(v, vec![0, 64, 127]);
        assert_eq!(Bits64(0).count(), 0);
        assert_eq!(Bits64(u64::MAX).len(), 64);
    }
}
