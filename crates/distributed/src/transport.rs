//! The checker's [`Exchange`] on a timely dataflow: one input, records
//! exchanged by their destination worker, an inbox at each worker. A
//! superstep is one round (timestamp) of the input; timely's progress
//! tracking says when every worker's records of a round have arrived, so
//! the round is the barrier, across threads and processes alike.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use timely::container::CapacityContainerBuilder;
use timely::dataflow::channels::pact::Pipeline;
use timely::dataflow::operators::generic::Operator;
use timely::dataflow::operators::{Exchange as _, Input, Probe};
use timely::dataflow::{InputHandle, ProbeHandle};
use timely::worker::Worker;
use zeno_checker::distributed::{Exchange, Lost};

/// How long a worker waiting for a round sleeps before it looks whether
/// the run has failed (a message wakes it at once).
pub(crate) const WAKE: Duration = Duration::from_millis(50);

/// A record: destination worker, round, sending worker, the bytes.
type Record = (u64, u64, u64, Vec<u8>);

/// A worker's end of the dataflow.
pub struct Transport<'w> {
    worker: &'w mut Worker,
    input: InputHandle<u64, CapacityContainerBuilder<Vec<Record>>>,
    probe: ProbeHandle<u64>,
    inbox: Rc<RefCell<Vec<Record>>>,
    round: u64,
    /// Bytes and records this worker sent to other workers.
    pub sent_bytes: u64,
}

impl<'w> Transport<'w> {
    /// Builds the dataflow on `worker`.
    pub fn new(worker: &'w mut Worker) -> Transport<'w> {
        let mut input = InputHandle::new();
        let inbox: Rc<RefCell<Vec<Record>>> = Rc::default();
        let sink = Rc::clone(&inbox);
        let probe = worker.dataflow::<u64, _, _>(|scope| {
            let (probe, stream) = scope
                .input_from(&mut input)
                .container::<Vec<Record>>()
                .exchange(|r: &Record| r.0)
                .probe();
            stream.sink(Pipeline, "inbox", move |(input, _)| {
                input.for_each(|_, data| sink.borrow_mut().append(data));
            });
            probe
        });
        Transport {
            worker,
            input,
            probe,
            inbox,
            round: 0,
            sent_bytes: 0,
        }
    }
}

impl Exchange for Transport<'_> {
    fn index(&self) -> usize {
        self.worker.index()
    }

    fn peers(&self) -> usize {
        self.worker.peers()
    }

    fn exchange(&mut self, out: Vec<Vec<u8>>) -> Result<Vec<Vec<u8>>, Lost> {
        let me = self.worker.index();
        for (dest, bytes) in out.into_iter().enumerate() {
            if dest != me {
                self.sent_bytes += bytes.len() as u64;
            }
            self.input.send((dest as u64, self.round, me as u64, bytes));
        }
        self.round += 1;
        self.input.advance_to(self.round);
        while self.probe.less_than(self.input.time()) {
            // A lost process never completes the round: the failure its
            // network thread recorded ends the wait.
            if crate::failed() {
                return Err(Lost);
            }
            self.worker.step_or_park(Some(WAKE));
        }
        // A faster worker's records of the next round may be here already.
        let round = self.round - 1;
        let mut inbox = self.inbox.borrow_mut();
        let mut got: Vec<Vec<u8>> = vec![Vec::new(); self.worker.peers()];
        let mut kept = Vec::new();
        for record in inbox.drain(..) {
            if record.1 == round {
                got[record.2 as usize] = record.3;
            } else {
                kept.push(record);
            }
        }
        *inbox = kept;
        Ok(got)
    }
}
