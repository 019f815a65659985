//! Worked examples Ex 1 – Ex 12 of section 11 of the rules file.
