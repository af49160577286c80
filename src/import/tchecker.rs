use super::Sink;
use super::model::Model;

pub(crate) fn read(_text: &str, _labels: &[String], _sink: &mut Sink) -> Option<Model> {
    None
}
