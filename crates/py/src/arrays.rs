//! Observations and masks as NumPy arrays: one environment's (`[y, x]` layers and the colony
//! vector) or a vector's, stacked on a first axis of environments, each written straight into
//! the array's memory.

use engine::{CODE_LAYERS, Observation};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// Writes `parts` (one slice per environment, each the same length) into a new array shaped
/// `shape` (its first axis the environments, or none for one environment).
fn stacked<'py, T: numpy::Element + Copy>(
    py: Python<'py>,
    shape: &[usize],
    parts: &[&[T]],
) -> PyResult<Bound<'py, PyAny>> {
    let total: usize = parts.iter().map(|p| p.len()).sum();
    let flat = unsafe { PyArray1::<T>::new(py, [total], false) };
    {
        let mut rw = flat.readwrite();
        let out = rw.as_slice_mut().expect("a new array is contiguous");
        let mut at = 0;
        for p in parts {
            out[at..at + p.len()].copy_from_slice(p);
            at += p.len();
        }
    }
    flat.reshape(shape.to_vec()).map(|a| a.into_any())
}

/// The observation dict of some environments: one (`lead` empty) or a stack (`lead == [n]`).
pub fn observations<'py>(
    py: Python<'py>,
    lead: &[usize],
    obs: &[&Observation],
) -> PyResult<Bound<'py, PyDict>> {
    let first = obs[0];
    let (h, w) = (first.height as usize, first.width as usize);
    let n = h * w;
    let shape: Vec<usize> = lead.iter().copied().chain([h, w]).collect();
    let d = PyDict::new(py);
    for (k, name) in CODE_LAYERS.iter().enumerate() {
        let parts: Vec<&[u8]> = obs.iter().map(|o| &o.codes[k * n..(k + 1) * n]).collect();
        d.set_item(*name, stacked(py, &shape, &parts)?)?;
    }
    let water: Vec<&[f32]> = obs.iter().map(|o| o.water.as_slice()).collect();
    d.set_item("water", stacked(py, &shape, &water)?)?;
    let bad: Vec<&[f32]> = obs.iter().map(|o| o.badwater.as_slice()).collect();
    d.set_item("badwater", stacked(py, &shape, &bad)?)?;
    let colony: Vec<&[f32]> = obs.iter().map(|o| o.colony.as_slice()).collect();
    let cshape: Vec<usize> = lead.iter().copied().chain([first.colony.len()]).collect();
    d.set_item("colony", stacked(py, &cshape, &colony)?)?;
    Ok(d)
}

/// Masks: one (`lead` empty) or stacked.
pub fn masks<'py>(py: Python<'py>, lead: &[usize], masks: &[&[i8]]) -> PyResult<Bound<'py, PyAny>> {
    let shape: Vec<usize> = lead.iter().copied().chain([masks[0].len()]).collect();
    stacked(py, &shape, masks)
}

/// A placement mask as a `(height, width, 4)` array of z + 1 (0 refused).
pub fn placement<'py>(
    py: Python<'py>,
    m: &sim::colony::PlacementMask,
) -> PyResult<Bound<'py, PyAny>> {
    let a = PyArray1::from_slice(py, &m.spots);
    a.reshape([m.height as usize, m.width as usize, 4])
        .map(|a| a.into_any())
}
