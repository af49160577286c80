// The bridge puzzle's questions.

// in60
E<> (forall (i : id_t) Soldier(i).safe) and time <= 60
// Faster than 60 minutes: impossible (5 + 10, back 5, 20 + 25, back 10, 5 + 10).
E<> (forall (i : id_t) Soldier(i).safe) and time < 60
/* never more than two on the bridge */
A[] (sum (i : id_t) Soldier(i).going) + (sum (i : id_t) Soldier(i).back) <= 2
// The torch goes with every crossing: it is on the safe side when a
// soldier is on the way back.
A[] forall (i : id_t) Soldier(i).back imply L == 1
