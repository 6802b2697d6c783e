create table ledger (id identity primary key, entry varchar(100) not null);
