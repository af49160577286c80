//This file was generated from (Academic) UPPAAL 4.1.24 (rev. 29A3ECA4E5FB0808), November 2019

/*
Train 0 can reach the bridge.
*/
E<> Train(0).Cross

/*
Train 0 can cross while train 1 waits.
*/
E<> Train(0).Cross and Train(1).Stop

/*
Train 0 can cross while every other train waits.
*/
E<> Train(0).Cross and (forall (i : id_t) i != 0 imply Train(i).Stop)

/*
Two trains on the bridge at once.
*/
E<> Train(0).Cross and Train(1).Cross

/*
safe
*/
A[] forall (i : id_t) forall (j : id_t) Train(i).Cross && Train(j).Cross imply i == j

/*
A train that approaches crosses eventually.
*/
Train(0).Appr --> Train(0).Cross

/*
Train 2 too.
*/
Train(2).Appr --> Train(2).Cross

/*
no_deadlock
*/
A[] not deadlock

/*
simulate
*/
simulate[<=100]{Train(0).Cross, Train(1).Cross}

/*
A train stays at most 20 time units in Appr.
*/
A[] Train(0).Appr imply Train(0).x <= 20

/*

*/
E[<=200; 100](max: Gate.len)
